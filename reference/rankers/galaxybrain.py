"""Seed 000 §4.3: structured filters first, then a semantic re-rank of the candidates.

The candidates are the filtered memories' best under the code-aware lexical
ranking (`reference/lexical`: BM25, expansion through shared files, a recency
prior), the `RERANK_CANDIDATES` best; the re-rank adds `RERANK_WEIGHT` x the
query's normalised cosine to each one's normalised lexical score (both fitted
on the calibration split, `python3 -m bench.calibration`). When fewer filtered memories than that have any
lexical evidence, the nearest by meaning join the candidates below them (`LexicalLayer.reranked`), so a query
that shares no word with the filtered memories is still answered by meaning. At the seeds' values
(`reference:seed-defaults`) it is the seed's own: every filtered memory ranked
by cosine (`MemoryStore.search_memories`). A query without text lists the
filtered memories newest first.
"""
from __future__ import annotations

from reference.lexical.layer import LexicalLayer
from reference.lexical.params import RERANK_CANDIDATES, RERANK_WEIGHT, SEED, params_for
from reference.memories.record import SearchHit
from reference.rankers.base import Query
from reference.rankers.working_paths import near_first
from reference.store import MemoryStore


class GalaxybrainRanker:
    """Filtered, lexical candidates, semantic re-rank (module docstring)."""

    name = "galaxybrain"

    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self.params = params_for(store)
        self.lexical = LexicalLayer.for_store(store)

    def search(self, query: Query) -> list[SearchHit]:
        """The filtered memories ranked; with working paths, the memories that touched them first (working_paths.py)."""
        if query.paths:
            return near_first(self.search, query)
        if query.text is None or not query.text.strip() or self.params is SEED:
            return self.store.search_memories(query.text, task=query.task, context=query.context,
                                              insights=query.insights, tags=query.tags, top_k=query.top_k,
                                              where_metadata=query.where_metadata)
        if query.top_k == 0:
            return []
        ranked = self.ranked_ids(query, query.top_k)
        return hits_of(self.store, ranked)

    def ranked_ids(self, query: Query, k: int) -> list[tuple[str, float]]:
        """(memory id, score) of the `k` best for a text query (what `search` returns, without the rows)."""
        flt = self.store.memories.filter(query.task, query.context, query.insights, query.tags, query.where_metadata)
        allowed = None if flt.empty else self.store.memories.candidates(flt)
        return self.lexical.reranked(query.text, self.params, k, max(RERANK_CANDIDATES, k), RERANK_WEIGHT, allowed)


def hits_of(store: MemoryStore, ranked: list[tuple[str, float]]) -> list[SearchHit]:
    """`SearchHit`s of (memory id, score) pairs, in order; ids no longer stored are left out."""
    tracker = store.tracker
    rows = tracker.memories.get_many(tracker.conn(), [tracker.hash_fn(m) for m, _ in ranked])
    entries = {e.id: e for e in rows.values()}
    return [SearchHit(m, "memory", s, entries[m]) for m, s in ranked if m in entries]
