"""The knowledge capability of the reference backend: the store's `KnowledgeLayer`."""
from __future__ import annotations

from typing import Any

from reference.clock import iso
from reference.knowledge import KnowledgeLayer
from reference.knowledge.decay import calculate_relevance

from bench.backends.ops.knowledge import KnowledgeOps
from bench.backends.reference.part import ReferencePart


class KnowledgePart(KnowledgeOps, ReferencePart):
    """Opens the knowledge layer with the store, so every write gets entities and links."""

    def _on_open(self) -> None:
        super()._on_open()
        self.knowledge = KnowledgeLayer.for_store(self.store)

    def _on_close(self) -> None:
        self.knowledge = None
        super()._on_close()

    def oracle_search(self, query, limit=10, include_related=True, after=None, before=None, entity_filter=None,
                      min_relevance=None) -> list[dict[str, Any]]:
        hits = self.knowledge.search(query, limit=limit, include_related=include_related, after=after, before=before,
                                     entity_filter=entity_filter, min_relevance=min_relevance)
        return [h.to_dict() for h in hits]

    def oracle_entities(self, type=None, limit=100, document_id=None) -> list[dict[str, Any]]:
        if document_id is not None:
            ents = [e for e in self.knowledge.document_entities(document_id) if type is None or e.type == type]
            return [e.to_dict() for e in ents[:limit]]
        return [e.to_dict() for e in self.knowledge.entities(type=type, limit=limit)]

    def oracle_relationships(self, document_id, type=None) -> list[dict[str, Any]]:
        return [r.to_dict() for r in self.knowledge.relationships(document_id, type=type)]

    def oracle_timeline(self, after=None, before=None, limit=None) -> list[dict[str, Any]]:
        now = self.store.clock.now()
        out = []
        for t in self.knowledge.timeline(after=after, before=before, limit=limit):
            last = t.last_accessed if t.last_accessed is not None else t.recorded_date
            out.append({"id": t.document_id, "date": iso(t.effective_date),
                        "document_date": iso(t.document_date) if t.document_date is not None else None,
                        "recorded_date": iso(t.recorded_date), "date_source": t.date_source,
                        "access_count": t.access_count, "layer": t.layer,
                        "relevance": round(calculate_relevance(last, t.access_count, now, t.importance), 6)})
        return out

    def oracle_learn(self, pattern, concepts=None, source=None) -> str:
        return self.knowledge.learn(pattern, concepts=concepts, source=source).id
