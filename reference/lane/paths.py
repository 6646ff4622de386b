"""The agent's working paths (seed 004 Phase 4, path-based extraction): checked, and who touched them.

A working path is a file the agent has open, passed with the query. It is an
entity: the memories whose metadata `files_changed` (seed 002's key, written by
the project layer and the history scenarios) lists it, or that carry a slug the
path implies (entities.py rules), are its memories. They come from the store's
label index (label `("meta", "files_changed", ("s", path))`: one sorted array
per file, kept fresh on writes), so no row is parsed per query.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from reference.lane.entities import slugs_from_paths
from reference.lane.errors import LaneError

FILES_KEY = "files_changed"
_EMPTY = np.zeros(0, dtype=np.uint64)


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


def near_keys(store: Any, paths: tuple[str, ...]) -> np.ndarray | None:
    """Sorted key hashes of the memories of the working `paths` (None without paths; see the module docstring)."""
    if not paths:
        return None
    index = store.memories.filter_index
    arrays = [a for a in index.labelled_many(store.tracker.conn(), [("meta", FILES_KEY, ("s", p)) for p in paths])
              if a.size]
    near = np.unique(np.concatenate(arrays)) if arrays else _EMPTY
    slugs = slugs_from_paths(paths)
    if slugs:
        flt = store.memories.filter(where_metadata={"entity_slugs": slugs})
        near = np.union1d(near, store.memories.candidates(flt))
    return near
