"""Branch-filtered search without building the filter's candidate set on every query.

The seed's filter keeps the default branch and the asked one, which hold most of
the store: building that candidate set (a union of two large label arrays, then
a unique and a row lookup in the vector cache) cost 25-30 ms a query at 15k
commits, several times the search itself. Since the filter keeps most memories,
the answer is almost always near the top of the unfiltered ranking, so:

1. score every memory as the unfiltered search does and take the best `fetch`
   (key hash, cosine) pairs, every pair tied with the last one included;
2. keep the pairs whose memory carries one of the allowed `branch` values: a
   binary search in the store's label index (the precomputed sets the store's
   own filter answers from; one sorted array per branch name, kept fresh on writes);
3. if at least `top_k` are kept, the filtered answer is among them: every allowed
   memory scoring at least the last fetched score is there. Rows are read only
   for the best `top_k` (and ties), ordered by (score desc, id asc) as the store
   orders them. If the pairs were every memory, what is kept is complete too.

Otherwise (a query whose best matches are on other branches) it widens once,
then falls back to the store's filtered search. The answer always equals
`store.search_memories(query, top_k, where_metadata={"branch": allowed})`.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from reference.memories.record import SearchHit
from reference.vectors.search import KIND_TAGS

FIRST_FETCH = 4     # prefix = FIRST_FETCH x top_k (at least MIN_FETCH), then WIDEN x that once
MIN_FETCH = 40
WIDEN = 8


def branch_search(store: Any, query: str, top_k: int, allowed: list[str]) -> list[SearchHit]:
    """`store.search_memories(query, top_k, where_metadata={"branch": allowed})`, computed as above."""
    memories = store.memories
    conn = store.tracker.conn()
    with store.telemetry.measure("query", "memory", mode="filtered") as ev:
        qvec = memories.embed_query(query)
        # one call: every branch's keys from one state of the table
        labels = memories.filter_index.labelled_many(conn, [("meta", "branch", ("s", name)) for name in allowed])
        fetch = max(FIRST_FETCH * top_k, MIN_FETCH)
        for _ in range(2):
            pairs = memories.vectors.topk(qvec, fetch, tags=[KIND_TAGS["memory"]], with_ties=True)
            kept = _kept(pairs, labels)
            if len(kept) >= top_k or len(pairs) < fetch:   # enough, or every memory was ranked
                hits = _hits(store, conn, kept, top_k)
                ev.extra["results"] = len(hits)
                return hits
            fetch *= WIDEN
    return filtered(store, query, top_k, allowed)


def _kept(pairs: list[tuple[int, float]], labels: list[np.ndarray]) -> list[tuple[int, float]]:
    """The pairs whose key hash is in one of the sorted label arrays, in order."""
    if not pairs:
        return []
    keys = np.fromiter((h for h, _ in pairs), dtype=np.uint64, count=len(pairs))
    ok = np.zeros(len(pairs), dtype=bool)
    for arr in labels:
        if arr.size:
            pos = np.minimum(np.searchsorted(arr, keys), arr.size - 1)
            ok |= arr[pos] == keys
    return [p for p, keep in zip(pairs, ok.tolist()) if keep]


def _hits(store: Any, conn: Any, kept: list[tuple[int, float]], top_k: int) -> list[SearchHit]:
    """The best `top_k` of `kept` (best first) as the store's search returns them: ties by memory id."""
    if len(kept) > top_k:
        floor = kept[top_k - 1][1]
        kept = [p for p in kept if p[1] >= floor]
    entries = store.tracker.memories.get_many(conn, [h for h, _ in kept])
    hits = [SearchHit(entries[h].id, "memory", s, entries[h]) for h, s in kept if h in entries]
    hits.sort(key=lambda x: (-x.score, x.id))
    return hits[:top_k]


def filtered(store: Any, query: str | None, top_k: int, allowed: list[str]) -> list[SearchHit]:
    """The exact path: the store filters on metadata `branch` before ranking."""
    return store.search_memories(query, top_k=top_k, where_metadata={"branch": allowed})
