"""SQL for memory filters and safe FTS5 query strings.

Filter semantics (seed 000 §4.3, where the seed leaves them open):
- `task`: equality.
- `context`, `insights`, `tags`: the memory must carry every listed value
  (AND, as the seed's one-condition-per-value loop implies), matched exactly
  element by element in the JSON array (no LIKE wildcards).
- `where_metadata={"k": [v1, v2]}`: metadata key `k` equals one of the values,
  or, when `k` holds an array, one of its elements does; `None` in the list
  also matches a missing or null key. Several keys are ANDed.
"""
from __future__ import annotations

import json
import re
import reprlib
from dataclasses import dataclass, field
from typing import Any

from reference.errors import StoreError

_META_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*")
_FTS_TOKEN = re.compile(r"\w+", re.UNICODE)
MAX_FTS_TOKENS = 64


class InvalidFilter(StoreError, ValueError):
    """A filter argument has the wrong shape or type."""


@dataclass(frozen=True)
class MemoryFilter:
    """Structured filters over the `memories` table; empty means no condition."""

    task: str | None = None
    context: tuple[str, ...] = ()
    insights: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    where_metadata: dict[str, list[Any]] | None = field(default=None, hash=False)

    @property
    def empty(self) -> bool:
        """True when no condition applies (every memory passes)."""
        return (self.task is None and not self.context and not self.insights and not self.tags
                and not self.where_metadata)

    def sql(self, alias: str = "m") -> tuple[str, list[Any]]:
        """A WHERE clause body (`"1"` when empty) and its parameters."""
        conds: list[str] = []
        params: list[Any] = []
        if self.task is not None:
            conds.append(f"{alias}.task = ?")
            params.append(self.task)
        for column, values in (("context", self.context), ("insights", self.insights), ("tags", self.tags)):
            for v in values:
                # instr() on the JSON text is a cheap prefilter; json_each confirms an exact element match
                conds.append(f"(instr({alias}.{column}, ?) > 0 AND "
                             f"EXISTS (SELECT 1 FROM json_each({alias}.{column}) WHERE value = ?))")
                params += [_json(v), v]
        for key, values in sorted((self.where_metadata or {}).items()):
            clause, p = _metadata_condition(alias, key, values)
            conds.append(clause)
            params.extend(p)
        return (" AND ".join(conds) or "1"), params


def check_where_metadata(where: Any) -> dict[str, list[Any]] | None:
    """Validate `where_metadata`: a dict of key -> list of scalar values."""
    if where is None:
        return None
    if not isinstance(where, dict):
        raise InvalidFilter(f"where_metadata must be a dict of key -> list of values, got {type(where).__name__}")
    out: dict[str, list[Any]] = {}
    for key, values in where.items():
        if not isinstance(key, str) or not _META_KEY.fullmatch(key):
            raise InvalidFilter(f"where_metadata key {key!r} must match {_META_KEY.pattern}")
        if isinstance(values, (str, bytes)) or not isinstance(values, (list, tuple, set, frozenset)):
            raise InvalidFilter(f"where_metadata[{key!r}] must be a list of values, got {type(values).__name__}")
        vals = list(values)
        for v in vals:
            if v is not None and not isinstance(v, (str, int, float, bool)):
                raise InvalidFilter(f"where_metadata[{key!r}] value {reprlib.repr(v)} is not a JSON scalar "
                                    f"(a {type(v).__name__})")   # reprlib: bounded, whatever the nesting
        out[key] = vals
    return out


def _metadata_condition(alias: str, key: str, values: list[Any]) -> tuple[str, list[Any]]:
    path = "$." + json.dumps(key)  # quoted JSON path member: keys with '-' are safe
    parts: list[str] = []
    params: list[Any] = []
    scalars = [v for v in values if v is not None]
    if scalars:
        marks = ",".join("?" * len(scalars))
        parts.append(f"EXISTS (SELECT 1 FROM json_each({alias}.metadata, ?) "
                     f"WHERE type != 'null' AND value IN ({marks}))")
        params.append(path)
        params.extend(int(v) if isinstance(v, bool) else v for v in scalars)
    if len(scalars) != len(values):
        parts.append(f"coalesce(json_type({alias}.metadata, ?), 'null') = 'null'")
        params.append(path)
    if not parts:
        return "0", []  # an empty list of allowed values matches nothing
    clause = "(" + " OR ".join(parts) + ")"
    if scalars and len(scalars) == len(values) and all(isinstance(v, str) for v in scalars):
        pre = " OR ".join(f"instr({alias}.metadata, ?) > 0" for _ in scalars)
        return f"(({pre}) AND {clause})", [_json(v) for v in scalars] + params
    return clause, params


def _json(value: str) -> str:
    """The value as it appears inside stored JSON (compact, non-ASCII kept)."""
    return json.dumps(value, ensure_ascii=False)


def fts_match(query: str) -> str | None:
    """An FTS5 MATCH string for free text: each word quoted, ORed; None if no words.

    Quoting makes user text with `"`, `-`, `:`, `*`, `(` or `AND` mean only
    words, never FTS5 syntax. bm25 ranks documents matching more terms higher.
    """
    tokens = _FTS_TOKEN.findall(query or "")[:MAX_FTS_TOKENS]
    if not tokens:
        return None
    seen: list[str] = []
    for t in tokens:
        if t.lower() not in {s.lower() for s in seen}:
            seen.append(t)
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in seen)
