"""Memory records shared by the alternative backends: validation, ids, filters, the record dict.

fts-baseline, sqlite-vec, chroma and jsonl-graph all validate a write with the
reference's `validate_memory` (an unknown taxonomy slug raises `UnknownSlug`,
a `ValueError`, before anything is written), derive ids with `new_memory_id`
and return records shaped by `make_record`, so the harness sees the same
fields whichever of them it talks to.

Ids are `mem:` + 8 hex digits of BLAKE2b over (created_at, salt, text); the
salt moves only while that id is taken, so the same writes at the same clock
times give the same ids. An id freed by a delete may be given again to the
same text written at the same clock time.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reference.clock import iso
from reference.errors import StoreError
from reference.memories.input import MemoryInput, check_tags, validate_memory
from reference.ontology import check_context, check_insights, check_task
from reference.tracker import MemoryFilter, check_where_metadata

__all__ = [
    "InvalidArgument", "MemoryInput", "validate_memory", "memory_id", "new_memory_id", "make_record",
    "make_filter", "is_empty", "check_count", "check_query", "check_id", "dir_bytes",
]


class InvalidArgument(StoreError, ValueError):
    """A read or search argument has the wrong type or value."""


def memory_id(created_at: float, text: str, salt: int = 0) -> str:
    """`mem:` + the first 8 hex digits of BLAKE2b over (created_at, salt, text)."""
    h = hashlib.blake2b(f"{created_at!r}\x1f{salt}\x1f{text}".encode("utf-8"), digest_size=4)
    return "mem:" + h.hexdigest()


def new_memory_id(created_at: float, text: str, taken: Callable[[str], bool]) -> str:
    """The first `memory_id` (salt 0, 1, ...) for which `taken(id)` is false."""
    salt = 0
    mid = memory_id(created_at, text, salt)
    while taken(mid):
        salt += 1
        mid = memory_id(created_at, text, salt)
    return mid


def make_record(mid: str, inp: MemoryInput, created_at: float) -> dict[str, Any]:
    """The record dict a backend returns from `get_memory` / `list_memories`."""
    return {
        "id": mid,
        "task": inp.task,
        "insights": list(inp.insights),
        "context": list(inp.context),
        "symbol_keys": list(inp.symbol_keys),
        "text": inp.text,
        "tags": list(inp.tags),
        "metadata": inp.metadata,
        "created_at": created_at,
        "created_at_iso": iso(created_at),
    }


def _slug_list(name: str, value: Any) -> Any:
    if isinstance(value, str):
        raise InvalidArgument(f"{name} filter must be a list of slugs, not the string {value!r}")
    return value


def make_filter(task: Any = None, context: Any = None, insights: Any = None, tags: Any = None,
                where_metadata: Any = None) -> MemoryFilter:
    """Validated filters; an unknown slug raises `UnknownSlug` naming the allowed ones."""
    if task is not None and not isinstance(task, str):
        raise InvalidArgument(f"task filter must be a slug string like 'task:debug', got {task!r}")
    return MemoryFilter(task=check_task(task), context=tuple(check_context(_slug_list("context", context))),
                        insights=tuple(check_insights(_slug_list("insights", insights))),
                        tags=check_tags(tags), where_metadata=check_where_metadata(where_metadata))


def is_empty(flt: MemoryFilter) -> bool:
    """True when the filter selects every memory."""
    return not (flt.task or flt.context or flt.insights or flt.tags or flt.where_metadata)


def check_count(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidArgument(f"{name} must be a non-negative integer, got {value!r}")
    return value


def newest_first(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Records newest first (created_at descending, then id): the order every list and query-less search uses."""
    return sorted(records, key=lambda r: (-r["created_at"], r["id"]))


def page(records: list[dict[str, Any]], limit: Any, offset: Any) -> list[dict[str, Any]]:
    """`records[offset:offset + limit]`, both counts checked (`InvalidArgument` naming the bad one)."""
    limit, offset = check_count("limit", limit), check_count("offset", offset)
    return records[offset: offset + limit]


def check_query(query: Any) -> str | None:
    """The query, or None when there is nothing to rank by (None or blank)."""
    if query is None:
        return None
    if not isinstance(query, str):
        raise InvalidArgument(f"query must be a string, got {type(query).__name__}")
    return query if query.strip() else None


def check_id(memory_id: Any) -> str:
    if not isinstance(memory_id, str):
        raise InvalidArgument(f"memory id must be a string, got {type(memory_id).__name__} {memory_id!r}")
    return memory_id


def dir_bytes(root: Path) -> int:
    """Total size of the files under `root`."""
    return sum(p.stat().st_size for p in Path(root).rglob("*") if p.is_file())
