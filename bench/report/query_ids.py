"""Unique keys for the per-query records of a scenario (query ids may repeat in a scenario)."""
from __future__ import annotations

from typing import Any


def unique_ids(queries: list[dict[str, Any]]) -> list[str]:
    """Each query's `id`, with `~2`, `~3`, ... appended to repeats so that every key is unique."""
    seen: dict[str, int] = {}
    out = []
    for q in queries:
        n = seen[q["id"]] = seen.get(q["id"], 0) + 1
        out.append(q["id"] if n == 1 else f"{q['id']}~{n}")
    return out
