"""Memory reads through `MemoryStore`: get, filtered and keyword search, list, iterate, scores.

Filters are validated (`Memories.filter`) before the telemetry event starts, so a bad
filter raises without an event; `MemoryStore` binds these functions as its methods.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from reference.memory_args import InvalidArgument, check_count
from reference.memory_record import MemoryEntry, SearchHit

if TYPE_CHECKING:
    from reference.store import MemoryStore


def get_memory(store: MemoryStore, memory_id: str) -> MemoryEntry | None:
    """The memory, or None if there is none with that id."""
    store._check_open()
    with store.telemetry.measure("read", "memory", memory_id) as ev:
        entry = store.memories.get(memory_id)
        ev.extra["found"] = entry is not None
    return entry


def search_memories(store: MemoryStore, query: str | None = None, task: str | None = None,
                    context: list[str] | None = None, insights: list[str] | None = None,
                    tags: list[str] | None = None, top_k: int = 10, where_metadata: dict[str, list] | None = None
                    ) -> list[SearchHit]:
    """Seed 000 §4.3 (see `Memories.search`): filtered, ranked by cosine to the query."""
    store._check_open()
    flt = store.memories.filter(task, context, insights, tags, where_metadata)
    with store.telemetry.measure("query", "memory", mode="filtered") as ev:
        hits = store.memories.search(query, flt, top_k)
        ev.extra["results"] = len(hits)
    return hits


def keyword_search(store: MemoryStore, query: str, top_k: int = 10, where_metadata: dict[str, list] | None = None
                   ) -> list[SearchHit]:
    """FTS5 bm25 over text and tags (see `Memories.keyword`)."""
    store._check_open()
    flt = store.memories.filter(where_metadata=where_metadata)
    with store.telemetry.measure("query", "memory", mode="keyword") as ev:
        hits = store.memories.keyword(query, flt, top_k)
        ev.extra["results"] = len(hits)
    return hits


def list_memories(store: MemoryStore, task: str | None = None, context: list[str] | None = None, limit: int = 50,
                  offset: int = 0, where_metadata: dict[str, list] | None = None) -> list[MemoryEntry]:
    """Newest first (see `Memories.list`); `limit` and `offset` from 0 to 2**63-1."""
    store._check_open()
    for name, value in (("limit", limit), ("offset", offset)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1 << 63:
            raise InvalidArgument(f"{name} must be an integer from 0 to 2**63-1, got {str(value)[:40]}")
    flt = store.memories.filter(task, context, where_metadata=where_metadata)
    with store.telemetry.measure("query", "memory", mode="list") as ev:
        out = store.memories.list(flt, limit, offset)
        ev.extra["results"] = len(out)
    return out


def iter_memories(store: MemoryStore, task: str | None = None, context: list[str] | None = None
                  ) -> Iterator[MemoryEntry]:
    """Every matching memory, oldest first (no telemetry: a maintenance scan, not a recall)."""
    store._check_open()
    return store.memories.iter(store.memories.filter(task, context))


def vector_scores(store: MemoryStore, query: str, memory_ids: list[str]) -> dict[str, float]:
    """Cosine of the query with each listed memory (see `Memories.vector_scores`)."""
    store._check_open()
    return store.memories.vector_scores(query, memory_ids)


def fts_scores(store: MemoryStore, query: str, k: int) -> dict[str, float]:
    """Memory id -> -bm25 for the `k` best keyword matches (higher is better)."""
    store._check_open()
    return {h.id: h.score for h in store.memories.keyword(query, store.memories.filter(), check_count("top_k", k))}
