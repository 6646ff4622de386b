"""The agent's working paths for any ranker: seed 004's path-based entities, first, then the open ranking.

A working path is an entity; the memories that touched one (metadata
`files_changed` lists it, seed 002's key) are its candidates. `near_first`
asks the ranker's own search twice, inside that set (the caller's filters
kept) and over everything, and returns the first list followed by the second
without repeats: the paths reorder, they never filter. Rankers that weigh
paths themselves (memory-lane: hybrid.py) do not use this.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable

from reference.memories.record import SearchHit
from reference.rankers.base import Query

FILES_KEY = "files_changed"


def near_first(search: Callable[[Query], list[SearchHit]], query: Query) -> list[SearchHit]:
    """`search(query)` with the memories that touched `query.paths` first (see the module docstring)."""
    open_query = dataclasses.replace(query, paths=())
    if not query.paths or not query.text or not query.text.strip() or query.top_k <= 0:
        return search(open_query)
    where = dict(query.where_metadata or {})
    if FILES_KEY in where:   # the caller already filters on files: nothing to put first
        return search(open_query)
    where[FILES_KEY] = list(query.paths)
    near = search(dataclasses.replace(open_query, where_metadata=where))
    seen = {h.id for h in near}
    rest = [h for h in search(open_query) if h.id not in seen]
    return (near + rest)[: query.top_k]
