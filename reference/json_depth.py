"""`too_deep(value, limit)`: does a JSON-like value nest lists and dicts deeper than `limit`? (issue 25)

Iterative, and it stops as soon as the limit is passed, so a value nested
10,000 deep costs `limit` steps to refuse instead of a `RecursionError` (or a
silent hang) in whichever recursive walk meets it first: `json.dumps`, `repr`,
the redactor, a payload check. The store's layers call it before any such walk:
memory metadata (`memory_input.check_metadata`), graph and policy payloads
(`graph.codec.check_payload`); where_metadata takes scalars only and says so
without printing the value. `MAX_DEPTH` is the store's limit; the MCP server's
is lower (16 levels per argument, `mcp_server/limits.py`).
"""
from __future__ import annotations

from typing import Any

MAX_DEPTH = 64


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """True if lists, tuples and dicts nest more than `limit` levels (a scalar is level 0)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        if depth + 1 > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False
