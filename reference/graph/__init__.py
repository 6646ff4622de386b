"""The LMDB graph memory layer of seed 003: `GraphStore`, `At`, records, snapshots.

Names are imported lazily so that `reference.graph.snapshot.reader` (mmap only)
can be used without importing LMDB.
"""
from __future__ import annotations

from reference.lazy_exports import lazy_getattr

_EXPORTS = {
    "GraphStore": "reference.graph.store",
    "DEFAULT_MAP_SIZE": "reference.graph.store",
    "At": "reference.graph.at",
    "CompactionPolicy": "reference.graph.adjacency",
    "Node": "reference.graph.records",
    "Edge": "reference.graph.records",
    "EdgeRef": "reference.graph.records",
    "KVEntry": "reference.graph.records",
    "Change": "reference.graph.records",
    "SnapshotReader": "reference.graph.snapshot.reader",
    "BUILTIN_RELATIONS": "reference.graph.relations:BUILTIN",
}
__all__ = sorted(_EXPORTS)


__getattr__ = lazy_getattr('reference.graph', _EXPORTS, globals())
