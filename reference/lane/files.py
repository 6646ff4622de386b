"""File entities of memories (seed 004 Phase 4, path-based extraction): who touched which file.

A memory's files are its metadata `files_changed` (seed 002's key, written by
the project layer and by the history scenarios) as exact path strings. They
serve Memory Lane twice:

- **working paths** (the files the agent has open, given with the query):
  the strict entity filter of seed 004 §4.3, a file being an entity; the
  memories that touched one of them are the candidates;
- **expansion**: the files of the best first-stage hits are entities the
  query did not name but its best matches share (seed 001's `relates_to`
  through shared entities, used at query time). Each such file gets the
  weight sum(hit score) x idf(file); a memory gains the weights of the files
  it touched.

The memories of a file come from the store's label index (label
`("meta", "files_changed", ("s", path))`: one sorted array per file, kept
fresh on writes), so no row is parsed per query.
"""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

import numpy as np

from reference.lane.errors import LaneError

FILES_KEY = "files_changed"
_EMPTY = np.zeros(0, dtype=np.uint64)


def files_of(metadata: dict[str, Any] | None) -> list[str]:
    """The file paths a memory's metadata lists (strings only, in order, without repeats)."""
    raw = (metadata or {}).get(FILES_KEY)
    if not isinstance(raw, list):
        return []
    return list(dict.fromkeys(f for f in raw if isinstance(f, str) and f))


def check_paths(paths: object) -> tuple[str, ...]:
    """Working paths as given by a caller: a list of non-empty strings (LaneError, a ValueError, naming the bad one)."""
    if paths is None:
        return ()
    if isinstance(paths, str) or not isinstance(paths, (list, tuple)):
        raise LaneError(f"paths must be a list of file paths, got {type(paths).__name__}")
    for p in paths:
        if not isinstance(p, str) or not p.strip():
            raise LaneError(f"paths must hold non-empty strings; got {p!r}")
    return tuple(dict.fromkeys(p.strip() for p in paths))


class FileHolders:
    """The memories (key hashes) that touched each file, from the store's label index."""

    def __init__(self, store: Any) -> None:
        self.store = store

    def holders(self, paths: Iterable[str]) -> dict[str, np.ndarray]:
        """Per path, the sorted key hashes of the memories whose `files_changed` lists it."""
        paths = list(dict.fromkeys(paths))
        if not paths:
            return {}
        index = self.store.memories.filter_index
        arrays = index.labelled_many(self.store.tracker.conn(), [("meta", FILES_KEY, ("s", p)) for p in paths])
        return dict(zip(paths, arrays))

    def touching(self, paths: Iterable[str]) -> np.ndarray:
        """Sorted unique key hashes of the memories that touched any of `paths`."""
        arrays = [a for a in self.holders(paths).values() if a.size]
        return np.unique(np.concatenate(arrays)) if arrays else _EMPTY


def expansion(seeds: list[tuple[float, list[str]]], holders: dict[str, np.ndarray], total: int,
              max_share: float, max_holders: int | None = None) -> dict[int, float]:
    """key hash -> summed weight of the seeds' files it touched.

    `seeds` are (score, files) of the first-stage hits expanded. A file's weight
    is the sum of the scores of the seeds that touched it times ln(total / df),
    df = the memories that touched it; a file more than `max_share` of the
    memories touched (a hub: the changelog, the main module) carries nothing, and so does one more than
    `max_holders` memories touched (a bound on the work per query, whatever the store's size).
    """
    weight: dict[str, float] = defaultdict(float)
    for score, files in seeds:
        for f in files:
            weight[f] += score
    out: dict[int, float] = defaultdict(float)
    for f, w in weight.items():
        arr = holders.get(f)
        if arr is None or arr.size == 0 or arr.size > max_share * total or (max_holders and arr.size > max_holders):
            continue
        idf = math.log(max(total, 1) / arr.size)
        if idf <= 0:
            continue
        for k in arr.tolist():
            out[k] += w * idf
    return out
