"""Plain JSON shapes the tools return (shared by the tool modules)."""
from __future__ import annotations

from typing import Any

from reference.memory_record import MemoryEntry, SearchHit


def memory(entry: MemoryEntry) -> dict[str, Any]:
    """A memory entry as `MemoryEntry.to_dict()` gives it."""
    return entry.to_dict()


def memory_hit(hit: SearchHit) -> dict[str, Any]:
    """A ranked memory: the entry's fields plus `score` (and the ranker's `meta`, if any)."""
    out = hit.entry.to_dict() if hit.entry is not None else {"id": hit.id}
    out["score"] = hit.score
    if hit.meta:
        out["meta"] = dict(hit.meta)
    return out


def hit(h: SearchHit) -> dict[str, Any]:
    """A ranked file, symbol, chunk or memory: id, kind, score (+ entry or meta)."""
    return h.to_dict()
