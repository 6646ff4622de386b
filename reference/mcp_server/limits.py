"""Limits on tool arguments, checked on the raw JSON before a tool does any work (README "Limits").

`check_call(tool, arguments)` walks each argument once, stopping at the first
limit it passes, so a 10 MB string or a list of 100,000 items costs O(1) to
refuse; it raises `ArgumentError` naming the argument, its size and the limit.
Every argument gets a default limit by JSON kind; the table `ARGUMENTS` sets
others by name (`"tool.argument"` before `"argument"`). Times have their own
range (`MIN_TS`..`MAX_TS`, and graph writes at most `FUTURE_WINDOW_S` ahead
of the server clock), checked by `check_time` / `check_write_ts`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from reference.clock import MAX_TS as CLOCK_MAX_TS
from reference.mcp_server.registry import ArgumentError

MAX_NAME = 512              # any string argument not in ARGUMENTS: ids, keys, slugs, tags, paths, globs
MAX_QUERY = 10_000          # search queries
MAX_TEXT = 16_384           # text stored as one memory (knowledge extraction grows faster than linear)
MAX_DESCRIPTION = 4_096
MAX_LIST = 1_000            # any list argument not in ARGUMENTS
MAX_BATCH = 256             # memories in one memory_write_batch call
MAX_JSON = 65_536           # nested JSON (payload, metadata): characters of strings + 1 per value
MAX_DEPTH = 16              # nesting of arrays and objects
MAX_FILE_TEXT = 2_000_000   # one file's text in project_index_snapshot(files)
MAX_SNAPSHOT = 16_000_000   # all of project_index_snapshot(files), and the size of its `path` file
MAX_SNAPSHOT_FILES = 10_000  # records in project_index_snapshot(files)
MAX_TOOL_NAME = 128
MIN_INT, MAX_INT = -(1 << 63), (1 << 64) - 1   # u64 key hashes are the largest integers a tool takes
MAX_OFFSET = 1_000_000_000
MIN_TS, MAX_TS = 0.0, CLOCK_MAX_TS             # Unix seconds: 1970 to the end of year 9999
FUTURE_WINDOW_S = 86_400.0                     # a graph write may be stamped at most a day ahead of the clock
MAX_REV = (1 << 32) - 1


@dataclass(frozen=True)
class Limit:
    """`kind` "str": at most `size` characters; "list": at most `size` items, each within `item`;
    "json": any JSON, at most `size` (string characters + 1 per value), strings within `item`."""

    kind: str
    size: int
    item: int = MAX_NAME
    what: str = ""
    items: int | None = None   # "json" given as a list: at most this many items


TEXT = Limit("str", MAX_TEXT, what="stored text")
QUERY = Limit("str", MAX_QUERY, what="query")
ARGUMENTS: dict[str, Limit] = {
    "text": TEXT, "information": TEXT, "summary": TEXT, "message": TEXT, "oracle_learn.pattern": TEXT,
    "query": QUERY,
    "description": Limit("str", MAX_DESCRIPTION, what="description"),
    "oracle_learn.concepts": Limit("list", 100, what="concepts"),
    "pattern_load.patterns": Limit("list", 256, item=4_096, what="patterns"),
    "pattern_load.names": Limit("list", 256, what="pattern names"),
    "symbol_keys": Limit("list", 1_000, what="symbol keys"),
    "live_branches": Limit("list", 10_000, what="branches"),
    "project_record_commit.files": Limit("list", 10_000, what="changed files"),
    "project_index_snapshot.files": Limit("json", MAX_SNAPSHOT, item=MAX_FILE_TEXT, what="snapshot files",
                                          items=MAX_SNAPSHOT_FILES),
    "memory_write_batch.memories": Limit("json", MAX_BATCH * (MAX_TEXT + MAX_JSON), item=MAX_TEXT,
                                         what="memories", items=MAX_BATCH),
    "payload": Limit("json", MAX_JSON, what="JSON payload"),
    "metadata": Limit("json", MAX_JSON, what="metadata"),
    "where_metadata": Limit("json", MAX_JSON, what="metadata filter"),
}
for _name in ("entities", "entityFilter", "tags", "context", "insights", "paths", "flags", "types"):
    ARGUMENTS[_name] = Limit("list", 100, what=_name)
DEFAULTS = {"str": Limit("str", MAX_NAME, what="string argument"), "list": Limit("list", MAX_LIST, what="list"),
            "json": Limit("json", MAX_JSON, what="JSON argument")}


def limit_for(tool: str, argument: str, value: Any) -> Limit:
    """The limit that applies to `argument` of `tool` given the JSON kind of `value`."""
    found = ARGUMENTS.get(f"{tool}.{argument}") or ARGUMENTS.get(argument)
    kind = "str" if isinstance(value, str) else "list" if isinstance(value, list) else "json"
    if found is not None and (found.kind == kind or found.kind == "json"):
        return found
    return DEFAULTS[kind]


def check_call(tool: str, arguments: Any) -> None:
    """Raise `ArgumentError` if any argument of a call to `tool` is over its limit (see the module doc)."""
    if not isinstance(arguments, dict):
        return
    for name, value in arguments.items():
        if not isinstance(name, str) or len(name) > MAX_TOOL_NAME:
            raise ArgumentError(str(name)[:40], f"an argument name of {len(str(name)):,} characters")
        check_argument(tool, name, value)


def check_argument(tool: str, name: str, value: Any) -> None:
    lim = limit_for(tool, name, value)
    if lim.kind == "str":
        if len(value) > lim.size:
            raise ArgumentError(name, f"{len(value):,} characters; the limit for {lim.what} is {lim.size:,}")
        return
    if lim.kind == "list":
        if len(value) > lim.size:
            raise ArgumentError(name, f"{len(value):,} items; the limit for {lim.what} is {lim.size:,}")
        budget = [lim.size * (lim.item + 1)]
        for i, item in enumerate(value):
            _walk(name, f"{name}[{i}]", item, lim.item, budget, 1, lim.what)
        return
    if lim.items is not None and isinstance(value, list) and len(value) > lim.items:
        raise ArgumentError(name, f"{len(value):,} items; the limit for {lim.what} is {lim.items:,}")
    _walk(name, name, value, lim.item, [lim.size], 0, lim.what)


def _walk(name: str, where: str, value: Any, max_str: int, budget: list[int], depth: int,
          what: str = "JSON argument") -> None:
    """Charge `value` to `budget[0]`; raise on a string over `max_str`, depth, a bad number, or no budget."""
    if depth > MAX_DEPTH:
        raise ArgumentError(name, f"nested deeper than the limit of {MAX_DEPTH} levels at {where[:80]}")
    budget[0] -= 1
    if isinstance(value, str):
        if len(value) > max_str:
            raise ArgumentError(name, f"{where[:80]} has {len(value):,} characters; the limit is {max_str:,}")
        budget[0] -= len(value)
    elif isinstance(value, bool) or value is None:
        pass
    elif isinstance(value, int):
        if not MIN_INT <= value <= MAX_INT:
            raise ArgumentError(name, f"{where[:80]} is an integer of {value.bit_length()} bits; the limit is 64")
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ArgumentError(name, f"{where[:80]} is not a finite number")
    elif isinstance(value, list):
        if len(value) > budget[0]:
            raise ArgumentError(name, f"{where[:80]} has {len(value):,} items, more than the limit for {what} allows")
        for i, item in enumerate(value):
            _walk(name, f"{where}[{i}]", item, max_str, budget, depth + 1, what)
    elif isinstance(value, dict):
        if len(value) > budget[0]:
            raise ArgumentError(name, f"{where[:80]} has {len(value):,} keys, more than the limit for {what} allows")
        for key, item in value.items():
            _walk(name, f"{where} key", key, MAX_NAME, budget, depth + 1, what)
            _walk(name, f"{where}.{str(key)[:40]}", item, max_str, budget, depth + 1, what)
    if budget[0] < 0:
        raise ArgumentError(name, f"is larger than the limit for {what}")


def check_time(name: str, value: float | int | None) -> float | None:
    """`value` as Unix seconds if it is a finite number in MIN_TS..MAX_TS (None passes through)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not MIN_TS <= value <= MAX_TS:
        raise ArgumentError(name, f"{_short(value)} is not a time: Unix seconds from {MIN_TS:.0f} to "
                                  f"{MAX_TS:.0f} (the end of year 9999) expected")
    return float(value)


def check_write_ts(name: str, value: float | int | None, now: float) -> float | None:
    """A graph write's `ts`: a time (`check_time`) at most FUTURE_WINDOW_S ahead of the clock's `now`."""
    ts = check_time(name, value)
    if ts is not None and ts > now + FUTURE_WINDOW_S:
        raise ArgumentError(name, f"{ts!r} is more than {FUTURE_WINDOW_S:.0f} s ahead of the server clock "
                                  f"({now!r}); a write far in the future would block every later write")
    return ts


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:40]}..."
