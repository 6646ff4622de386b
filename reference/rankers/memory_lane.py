"""Seed 004 §4.3-4.4 as a ranker: entity filter or semantic search, type weight, intent boost, feedback, floors.

Ranker mode (reference/lane/hybrid.py) ranks with the code-aware lexical
pipeline (reference/lexical: BM25 + cosine, expansion through shared files, a
recency prior) under its own weights, and reads `Query.paths` (the agent's
working files) as path-based entities whose memories come first.
The structured filters of the query apply on top of the entity filter. An
ambiguous entity mention cannot stop a ranker for clarification, so it is
read as all of its candidates. With `Query.session_id`, memories the lane
already injected in that session are left out (they are in the agent's
context). A query without text lists the filtered memories newest first, as
the store's own search does. Hit `meta` carries the score's factors.
"""
from __future__ import annotations

from reference.lane import MemoryLane
from reference.memories.record import SearchHit
from reference.rankers.base import Query


class MemoryLaneRanker:
    """Memory Lane's dual search over a store (one `MemoryLane` per store)."""

    name = "memory-lane"

    def __init__(self, store) -> None:
        self.store = store
        self.lane = MemoryLane.for_store(store)

    def search(self, query: Query) -> list[SearchHit]:
        if query.text is None or not query.text.strip():
            return self.store.search_memories(query.text, task=query.task, context=query.context,
                                              insights=query.insights, tags=query.tags, top_k=query.top_k,
                                              where_metadata=query.where_metadata)
        filters = {"task": query.task, "context": query.context, "insights": query.insights, "tags": query.tags,
                   "where_metadata": query.where_metadata}
        result = self.lane.search(query.text, filters=filters, top_k=query.top_k, session_id=query.session_id,
                                  paths=list(query.paths))
        return [SearchHit(h.id, "memory", h.score, h.entry,
                          {"similarity": h.similarity, "memory_type": h.memory_type.value,
                           "type_weight": h.type_weight, "intent_boost": h.intent_boost,
                           "feedback_factor": h.feedback_factor, "relevance": h.relevance, "mode": result.mode})
                for h in result.hits]
