"""Unified semantic search over the vector cache (seed 000 §4.2), restricted by entity type.

`topk_hits` embeds nothing: it takes a query vector, asks the cache for the
best rows whose tag is one of the requested types, names each hit by its
canonical key from the `keys` table and attaches the memory entry (memories)
or the location (files, symbols, chunks). Ties are broken by id ascending.
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from reference.errors import StoreError
from reference.memories.record import SearchHit
from reference.tracker import Tracker
from reference.vectors import VectorCache

KINDS = ("file", "symbol", "chunk", "memory")
# The tag each vector row carries (vectors.tags); 0 means untagged.
KIND_TAGS = {"file": 1, "symbol": 2, "chunk": 3, "memory": 4}


class UnknownType(StoreError, ValueError):
    """An entity type that is not one of file, symbol, chunk, memory."""


def check_kinds(kinds: Iterable[str] | None) -> tuple[str, ...] | None:
    if kinds is None:
        return None
    if isinstance(kinds, str):
        kinds = [kinds]
    out = tuple(dict.fromkeys(kinds))
    for k in out:
        if k not in KINDS:
            raise UnknownType(f"unknown entity type {k!r}; expected some of {', '.join(KINDS)}")
    return out


def topk_hits(tracker: Tracker, vectors: VectorCache, qvec: np.ndarray, k: int,
              kinds: tuple[str, ...] | None = None) -> list[SearchHit]:
    """The `k` nearest records of the given types (all types when None), best first.

    The vector rows carry their entity kind as a tag, so restricting by type
    needs no query to the tracker.
    """
    if k <= 0:
        return []
    tags = None if kinds is None else [KIND_TAGS[x] for x in kinds]
    pairs = vectors.topk(qvec, k, tags=tags, with_ties=True)
    hits = describe(tracker, pairs)
    hits.sort(key=lambda h: (-h.score, h.id))
    return hits[:k]


def describe(tracker: Tracker, pairs: list[tuple[int, float]]) -> list[SearchHit]:
    """SearchHits for (key_hash, score) pairs; hashes with no live record are dropped."""
    conn = tracker.conn()
    names = tracker.keys.lookup(conn, [h for h, _ in pairs])
    mem_hashes = [h for h, _ in pairs if names.get(h, ("", ""))[1] == "memory"]
    entries = tracker.memories.get_many(conn, mem_hashes) if mem_hashes else {}
    hits = []
    for h, score in pairs:
        if h not in names:
            continue
        key, kind = names[h]
        if kind == "memory":
            if h in entries:
                hits.append(SearchHit(key, kind, score, entries[h]))
            continue
        found = tracker.code.locate(conn, h)
        if found is None:
            continue
        row = found[1]
        meta = {f: row[f] for f in ("path", "name", "kind", "start_line", "end_line") if f in row}
        if "kind" in meta:
            meta["symbol_kind"] = meta.pop("kind")
        hits.append(SearchHit(key, kind, score, None, meta))
    return hits
