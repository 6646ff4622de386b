"""Seed 001 §5 as a ranker: the knowledge layer's hybrid search behind the `Ranker` protocol.

Structured filters of the `Query` (task, context, insights, tags,
where_metadata) restrict the candidates like the store's own search;
`Query.options` carries the seed's search options (snake_case):
`after` / `before` (ISO-8601 or Unix seconds; the temporal filter),
`entity_filter` (entity ids such as `feature:auth`, or names),
`min_relevance` (float) and `include_related` (default True). Any other
option is an error. Results record an access (seed 001 §4), as oracle_search does.
"""
from __future__ import annotations

from typing import Any

from reference.knowledge import KnowledgeError, KnowledgeLayer
from reference.memories.record import SearchHit
from reference.rankers.base import Query
from reference.rankers.working_paths import near_first

OPTIONS = ("after", "before", "entity_filter", "min_relevance", "include_related")


class OracleHybridRanker:
    """FTS 0.4 + vector 0.6, temporal filter, relevance decay, relationship and entity enrichment."""

    name = "oracle-hybrid"

    def __init__(self, store: Any) -> None:
        self.store = store
        self.layer = KnowledgeLayer.for_store(store)

    def search(self, query: Query) -> list[SearchHit]:
        if query.paths:   # the memories that touched the agent's working files first (working_paths.py)
            return near_first(self.search, query)
        unknown = sorted(set(query.options) - set(OPTIONS))
        if unknown:
            raise KnowledgeError(f"oracle-hybrid: unknown option(s) {', '.join(unknown)}; known: {', '.join(OPTIONS)}")
        flt = self.store.memories.filter(query.task, query.context, query.insights, query.tags, query.where_metadata)
        if query.text is None or not query.text.strip():
            return self.store.search_memories(None, task=query.task, context=query.context, insights=query.insights,
                                              tags=query.tags, top_k=query.top_k, where_metadata=query.where_metadata)
        if query.top_k == 0:
            return []
        opts = query.options
        hits = self.layer.search(query.text, limit=query.top_k, include_related=bool(opts.get("include_related", True)),
                                 after=opts.get("after"), before=opts.get("before"),
                                 entity_filter=opts.get("entity_filter"), min_relevance=opts.get("min_relevance"),
                                 flt=flt, details=False)
        conn = self.store.tracker.conn()
        entries = self.store.tracker.memories.get_many(conn, [self.store.tracker.hash_fn(h.id) for h in hits])
        by_id = {e.id: e for e in entries.values()}
        return [SearchHit(h.id, "memory", h.score, by_id.get(h.id),
                          {"matchType": h.match_type, **h.components}) for h in hits if h.id in by_id]
