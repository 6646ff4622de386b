"""Ranked memory searches (seed 000 §4.3): by cosine to the query, by keyword (bm25), and both lists at once.

Filters narrow the candidates first (the label index, `Memories.candidates`). Rankings
are best first and break ties by id ascending.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from reference.memory_args import InvalidArgument, check_count, check_memory_id
from reference.memory_record import SearchHit
from reference.tracker import MemoryFilter, fts_match
from reference.tracker.fts_topk import ranked_matches
from reference.vector_search import KIND_TAGS

if TYPE_CHECKING:
    from reference.memories import Memories


def search(memories: Memories, query: str | None, flt: MemoryFilter, top_k: int = 10) -> list[SearchHit]:
    """Filter in SQL, then rank the candidates by cosine to the query.

    Without a query (or a blank one) the filtered memories come newest first
    with score 0.0. Candidates without a vector are left out of a ranked answer.
    """
    top_k = check_count("top_k", top_k)
    if query is not None and not isinstance(query, str):
        raise InvalidArgument(f"query must be a string, got {type(query).__name__}")
    if query is None or not query.strip():
        return [SearchHit(e.id, "memory", 0.0, e) for e in memories.list(flt, limit=top_k)]
    if top_k == 0:
        return []
    conn = memories.tracker.conn()
    qvec = memories.embed_query(query)
    if flt.empty:  # every memory is a candidate: the vector tags say which rows are memories
        pairs = memories.vectors.topk(qvec, top_k, tags=[KIND_TAGS["memory"]], with_ties=True)
    else:
        cands = memories.candidates(flt)
        if cands.size == 0:
            return []
        pairs = memories.vectors.topk(qvec, top_k, allowed=cands, with_ties=True)
    entries = memories.tracker.memories.get_many(conn, [h for h, _ in pairs])
    hits = [SearchHit(entries[h].id, "memory", s, entries[h]) for h, s in pairs if h in entries]
    hits.sort(key=lambda x: (-x.score, x.id))
    return hits[:top_k]


def keyword(memories: Memories, query: str, flt: MemoryFilter, top_k: int = 10) -> list[SearchHit]:
    """FTS5 bm25 over text and tags; score = -bm25 (higher is better)."""
    top_k = check_count("top_k", top_k)
    match = fts_match(query)
    if match is None or top_k == 0:
        return []
    conn = memories.tracker.conn()
    kept = ranked_matches(conn, match, top_k, None if flt.empty else memories.candidates(flt), memories.keyword_index)
    entries = memories.tracker.memories.get_many(conn, [h for h, _ in kept])
    hits = [SearchHit(entries[h].id, "memory", s, entries[h]) for h, s in kept if h in entries]
    hits.sort(key=lambda x: (-x.score, x.id))
    return hits[:top_k]


def ranked_ids(memories: Memories, query: str, flt: MemoryFilter, k: int, *, keyword: bool = False
               ) -> list[tuple[str, float]]:
    """(id, score) of `search` (cosine) or `keyword` (-bm25) without reading whole rows: the same
    ranking, best first, ties by id, for callers that need only the order (rank fusion)."""
    return ranked_lists(memories, query, flt, k, keyword=keyword, vector=not keyword)[0 if keyword else 1]


def ranked_lists(memories: Memories, query: str, flt: MemoryFilter, k: int, *, keyword: bool = True, vector: bool = True
                 ) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    """(keyword list, vector list) as `ranked_ids` gives them (an empty list where not asked for),
    with one filter lookup and one id lookup for both."""
    k = check_count("k", k)
    conn = memories.tracker.conn()
    allowed = None if flt.empty else memories.candidates(flt)
    if k == 0 or (allowed is not None and allowed.size == 0):
        return [], []
    kw_pairs: list[tuple[int, float]] = []
    vec_pairs: list[tuple[int, float]] = []
    if keyword and (match := fts_match(query)) is not None:
        kw_pairs = ranked_matches(conn, match, k, allowed, memories.keyword_index)
    if vector:
        qvec = memories.embed_query(query)
        tags = None if allowed is not None else [KIND_TAGS["memory"]]
        vec_pairs = memories.vectors.topk(qvec, k, allowed, tags=tags, with_ties=True)
    ids = memories.id_index.ids_of(conn, [h for h, _ in kw_pairs] + [h for h, _ in vec_pairs])

    def named(pairs: list[tuple[int, float]]) -> list[tuple[str, float]]:
        # (-score, id) tuples sort in C, without a key function; -(-s) is s, bit for bit
        return [(m, -s) for s, m in sorted([(-s, ids[h]) for h, s in pairs if h in ids])[:k]]
    return named(kw_pairs), named(vec_pairs)


def vector_scores(memories: Memories, query: str, memory_ids: list[str]) -> dict[str, float]:
    """Cosine of the query with each listed memory; ids without a vector are left out."""
    ids = [check_memory_id(m) for m in memory_ids]
    scores = memories.vectors.scores(memories.embed_query(query), [memories.tracker.hash_fn(m) for m in ids])
    return {m: float(s) for m, s in zip(ids, scores) if not np.isnan(s)}
