"""Reciprocal rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009) of keyword, vector and galaxybrain lists.

    rrf_score(d) = sum over lists L containing d of 1 / (k + rank_L(d)),  ranks from 1

k = 60, the paper's value: it damps the weight of the first few ranks so that
no single list dominates. Each list is cut at DEPTH (at least top_k).

The lists: keyword = the code-aware lexical ranking (`reference/lexical`:
BM25 over identifier and path terms, expansion through shared files, a
recency prior; its vector part off), vector = cosine top-k, galaxybrain =
that ranker's list (lexical candidates, semantic re-rank). With structured
filters every list is computed inside the filter, so every list respects it.
At the seeds' values (`reference:seed-defaults`) the lists are the seed's:
FTS5 bm25, cosine, and galaxybrain's filtered cosine (the same ranking as the
vector list, so semantic evidence counts twice there).
"""
from __future__ import annotations

from collections.abc import Sequence

from reference.lexical.layer import LexicalLayer
from reference.lexical.params import SEED, params_for
from reference.memories.record import SearchHit
from reference.rankers.base import Query
from reference.rankers.galaxybrain import GalaxybrainRanker, hits_of
from reference.rankers.working_paths import near_first

RRF_K = 60
DEPTH = 100


def rrf(rankings: Sequence[Sequence[str]], k: int = RRF_K) -> list[tuple[str, float]]:
    """Fuse ranked id lists: (id, score) best first, ties by id.

    An id repeated within one list counts once, at its best rank.
    """
    if isinstance(k, bool) or not isinstance(k, (int, float)) or k < 0:
        raise ValueError(f"rrf k must be a non-negative number, got {k!r}")
    scores: dict[str, float] = {}
    for ranking in rankings:
        seen: set[str] = set()
        for rank, doc in enumerate(ranking, start=1):
            if doc in seen:
                continue
            seen.add(doc)
            scores[doc] = scores.get(doc, 0.0) + 1.0 / (k + rank)
    return [(doc, -s) for s, doc in sorted([(-s, doc) for doc, s in scores.items()])]  # -(-s) is s exactly


class RRFRanker:
    """Reciprocal rank fusion of the store's keyword, vector and galaxybrain rankings."""

    name = "rrf"

    def __init__(self, store, k: int = RRF_K, depth: int = DEPTH) -> None:
        self.store, self.k, self.depth = store, k, depth
        self.galaxybrain = GalaxybrainRanker(store)
        self.params = params_for(store)
        self.lexical = LexicalLayer.for_store(store)

    def search(self, query: Query) -> list[SearchHit]:
        if query.paths:   # the memories that touched the agent's working files first (working_paths.py)
            return near_first(self.search, query)
        depth = max(self.depth, query.top_k)
        if query.text is None or not query.text.strip():
            return self.galaxybrain.search(Query(query.text, query.task, query.context, query.insights, query.tags,
                                                 query.top_k, query.where_metadata))
        flt = self.store.memories.filter(query.task, query.context, query.insights, query.tags, query.where_metadata)
        if self.params is SEED:
            kw_list, vec_list = self.store.memories.ranked_lists(query.text, flt, depth)
            keyword, vector = [m for m, _ in kw_list], [m for m, _ in vec_list]
            # the seed's galaxybrain list for a text query is the filtered cosine ranking, i.e. `vector`
            # (tests/reference/rankers/test_rrf.py checks the two agree), so it is not computed twice
            fused = rrf([keyword, vector, vector], self.k)[: query.top_k]
            return hits_of(self.store, fused)
        allowed = None if flt.empty else self.store.memories.candidates(flt)
        # the filter looked up once; the query embedded once (kept by the lexical layer for galaxybrain's re-rank)
        vector = [m for m, _ in self.lexical.nearest(query.text, depth, allowed)]
        keyword = [m for m, _ in self.lexical.ranked(query.text, self.params.with_(vector_weight=0.0), depth, allowed)]
        galaxy = [m for m, _ in self.galaxybrain.ranked_ids(query, depth)]
        fused = rrf([keyword, vector, galaxy], self.k)[: query.top_k]
        return hits_of(self.store, fused)
