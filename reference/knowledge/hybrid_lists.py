"""The restrictions and the two ranked lists of seed 001 §5 hybrid search (steps 1-2 of hybrid.py).

`allowed_ids` turns the structured filters, the temporal window and the
entity filter into one set of key hashes; `keyword_scores` (bm25) and
`vector_scores` (cosine) give each list's `pool` best among them, by memory
id, ties broken by id.
"""
from __future__ import annotations

import sqlite3
from typing import Any

import numpy as np

from reference.knowledge import entity_table, temporal_table
from reference.tracker import MemoryFilter, fts_match
from reference.tracker.fts.topk import ranked_matches
from reference.tracker.id_index import IdIndex
from reference.tracker.keyword.index import KeywordIndex
from reference.vectors.search import KIND_TAGS


class Allowed:
    """The memories passing every restriction, as sorted key hashes (membership by id or hash)."""

    def __init__(self, hashes: np.ndarray, hash_fn) -> None:
        self.hashes, self._hash_fn = hashes, hash_fn

    def has_hashes(self, hashes: np.ndarray) -> np.ndarray:
        pos = np.minimum(np.searchsorted(self.hashes, hashes), max(self.hashes.size - 1, 0))
        return self.hashes[pos] == hashes if self.hashes.size else np.zeros(len(hashes), dtype=bool)

    def __contains__(self, memory_id: str) -> bool:
        return bool(self.has_hashes(np.asarray([self._hash_fn(memory_id)], dtype=np.uint64))[0])


def allowed_ids(store: Any, flt: MemoryFilter | None, after: float | None, before: float | None,
                entity_filter: list[str] | None) -> Allowed | None:
    """The memories that pass every restriction; None when nothing restricts.

    Structured filters come from the store's label index (no per-row JSON);
    the temporal window and the entity filter are id sets, hashed here.
    """
    conn = store.tracker.conn()
    hashes: np.ndarray | None = None
    if flt is not None and not flt.empty:
        hashes = store.memories.candidates(flt)
    extra: set[str] | None = None
    if after is not None or before is not None:
        extra = temporal_table.ids_in_window(conn, after, before)
    if entity_filter:
        docs = entity_table.documents_with_all(conn, entity_table.resolve_refs(conn, entity_filter))
        extra = docs if extra is None else extra & docs
    if extra is not None:
        ids = np.unique(np.fromiter((store.tracker.hash_fn(i) for i in extra), dtype=np.uint64, count=len(extra)))
        hashes = ids if hashes is None else np.intersect1d(hashes, ids, assume_unique=True)
    return None if hashes is None else Allowed(hashes, store.tracker.hash_fn)


def keyword_scores(conn: sqlite3.Connection, text: str, pool: int, allowed: Allowed | None, ids: IdIndex,
                   index: KeywordIndex | None = None) -> dict[str, float]:
    """Memory id -> -bm25 of the `pool` best keyword matches among `allowed` (all when None).

    One ranked FTS5 query (`reference.tracker.fts.topk`), or the store's keyword `index`; ids come
    from the store's id index `ids`; ties broken by id here.
    """
    match = fts_match(text)
    if match is None or pool <= 0:
        return {}
    kept = ranked_matches(conn, match, pool, None if allowed is None else allowed.hashes, index)
    names = ids.ids_of(conn, [h for h, _ in kept])
    scored = sorted(((names[h], s) for h, s in kept if h in names), key=lambda x: (-x[1], x[0]))
    return dict(scored[:pool])


def vector_scores(store: Any, text: str, pool: int, allowed: Allowed | None) -> dict[str, float]:
    qvec = store.memories.embed_query(text)
    if not np.any(qvec) or pool <= 0:
        return {}
    conn = store.tracker.conn()
    if allowed is None:
        pairs = store.vectors.topk(qvec, pool, tags=[KIND_TAGS["memory"]], with_ties=True)
    elif allowed.hashes.size == 0:
        return {}
    else:
        pairs = store.vectors.topk(qvec, pool, allowed=allowed.hashes, with_ties=True)
    names = store.memories.id_index.ids_of(conn, [h for h, _ in pairs])
    scored = [(names[h], s) for h, s in pairs if h in names]
    scored.sort(key=lambda x: (-x[1], x[0]))
    return dict(scored[:pool])
