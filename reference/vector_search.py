"""Unified semantic search over the vector cache (seed 000 §4.2), restricted by entity type.

`topk_hits` embeds nothing: it takes a query vector, asks the cache for the
best rows among the live keys of the requested types, names each hit by its
canonical key from the `keys` table and attaches the memory entry (memories)
or the location (files, symbols, chunks). Ties are broken by id ascending.
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from reference.errors import StoreError
from reference.memory_record import SearchHit
from reference.tracker import MemoryFilter, Tracker
from reference.vectors import VectorCache

KINDS = ("file", "symbol", "chunk", "memory")
_TABLE = {"file": "files", "symbol": "symbols", "chunk": "chunks"}
_NO_FILTER = MemoryFilter()


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


def live_hashes(tracker: Tracker, kinds: tuple[str, ...]) -> np.ndarray:
    """Key hashes of the live records of these types (uint64)."""
    conn = tracker.conn()
    out: list[int] = []
    for k in kinds:
        if k == "memory":
            out += tracker.memories.candidate_hashes(conn, _NO_FILTER)
        else:
            out += tracker.code.hashes(conn, _TABLE[k])
    return np.asarray(out, dtype=np.uint64)


def topk_hits(tracker: Tracker, vectors: VectorCache, qvec: np.ndarray, k: int,
              kinds: tuple[str, ...] | None = None) -> list[SearchHit]:
    """The `k` nearest records of the given types (all types when None), best first."""
    if k <= 0:
        return []
    allowed = None if kinds is None or set(kinds) == set(KINDS) else live_hashes(tracker, kinds)
    if allowed is not None and allowed.size == 0:
        return []
    pairs = vectors.topk(qvec, k, allowed=allowed, with_ties=True)
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
