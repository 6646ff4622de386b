"""The knowledge layer of seed 001 (Oracle phase 1) over the reference store.

`KnowledgeLayer.for_store(store)` adds entities and mentions, relationships
between memories (updates / extends / derives / relates_to), temporal data
with relevance decay and hot/warm/cold layers, and the seed's hybrid search;
`NoteWatcher` indexes a folder of notes as memories. Every rule and
threshold is documented in reference/knowledge/README.md.

Names are imported lazily: `reference/schema_steps.py` imports
`reference.knowledge.schema` while the package initialises, which must not pull in the store.
"""
from __future__ import annotations

from reference.lazy_exports import lazy_getattr

_EXPORTS = {
    "calculate_relevance": "reference.knowledge.decay", "layer_for": "reference.knowledge.decay",
    "InvalidTime": "reference.knowledge.errors", "KnowledgeError": "reference.knowledge.errors",
    "EntityExtractor": "reference.knowledge.extractor", "KnowledgeLayer": "reference.knowledge.layer",
    "Entity": "reference.knowledge.model", "OracleHit": "reference.knowledge.model",
    "Relationship": "reference.knowledge.model", "Temporal": "reference.knowledge.model",
    "NoteWatcher": "reference.knowledge.watcher", "NoteIndexer": "reference.knowledge.notes",
}
__all__ = sorted(_EXPORTS)


__getattr__ = lazy_getattr('reference.knowledge', _EXPORTS, globals())
