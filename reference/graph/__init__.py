"""The LMDB graph memory layer of seed 003: `GraphStore`, `At`, records, snapshots.

Names are imported lazily so that `reference.graph.snapshot_reader` (mmap only)
can be used without importing LMDB.
"""
from __future__ import annotations

import importlib
from typing import Any

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
    "SnapshotReader": "reference.graph.snapshot_reader",
    "BUILTIN_RELATIONS": "reference.graph.relations",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'reference.graph' has no attribute {name!r}")
    module = importlib.import_module(_EXPORTS[name])
    value = getattr(module, "BUILTIN" if name == "BUILTIN_RELATIONS" else name)
    globals()[name] = value
    return value
