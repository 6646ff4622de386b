"""Seed 000 §4.3: structured filters in SQL, then semantic re-rank of the candidates."""
from __future__ import annotations

from reference.memories.record import SearchHit
from reference.rankers.base import Query
from reference.rankers.working_paths import near_first
from reference.store import MemoryStore


class GalaxybrainRanker:
    """The store's own filtered search; the baseline every other ranker is compared with."""

    name = "galaxybrain"

    def __init__(self, store: MemoryStore) -> None:
        self.store = store

    def search(self, query: Query) -> list[SearchHit]:
        """The store's search; with working paths, the memories that touched them first (working_paths.py)."""
        if query.paths:
            return near_first(self.search, query)
        return self.store.search_memories(query.text, task=query.task, context=query.context,
                                          insights=query.insights, tags=query.tags, top_k=query.top_k,
                                          where_metadata=query.where_metadata)
