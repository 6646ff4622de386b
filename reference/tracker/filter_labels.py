"""The labels a memory carries for `FilterIndex`, and how to read one family of them from the table.

A label is a tuple naming one thing a filter can ask about: `("all",)`, `("task", t)`, `("context", c)`,
`("insights", i)`, `("tags", t)`, and per metadata key `k` with a non-null value `("present", k)`,
`("str", k, v)` for a string value and `("meta", k, scalar)` for the value (each element of an array,
each member of an object, as `json_each` sees them). Labels fall in families: the first five kinds are
one family each, and every metadata key is a family (`family_of`). `FilterIndex` reads from the table
only the families a query names (`family_rows`): a branch filter reads the `branch` key of every row,
in SQL, not every label of every row.
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from typing import Any

from reference.tracker.codec import from_db

Label = tuple
Family = tuple
LIST_FIELDS = ("context", "insights", "tags")
_OWN_FAMILY = {"all", "task", *LIST_FIELDS}
_NUL = "\\u0000"   # U+0000 as the stored JSON text writes it


def family_of(label: Label) -> Family:
    """The family of a label: its kind for the five column kinds, ("key", k) for metadata key k."""
    return (label[0],) if label[0] in _OWN_FAMILY else ("key", label[1])


def scalar(v: Any) -> tuple:
    """How SQLite compares a JSON value: bools are integers, 1 == 1.0, text never equals a number."""
    if isinstance(v, bool):
        return ("n", int(v))
    if isinstance(v, (int, float)):
        return ("n", v)
    if isinstance(v, str):
        return ("s", v)
    # a nested array or object: json_each yields its minified JSON text
    return ("s", json.dumps(v, ensure_ascii=False, separators=(",", ":")))


def key_labels(key: str, value: Any) -> list[Label]:
    """The labels of metadata key `key` holding `value` (none for a null)."""
    if value is None:
        return []
    out: list[Label] = [("present", key)]
    if isinstance(value, str):  # readers that take only a scalar string (Memory Lane's memory_type)
        out.append(("str", key, value))
    elems = value if isinstance(value, list) else list(value.values()) if isinstance(value, dict) else [value]
    out += [("meta", key, scalar(e)) for e in elems if e is not None]
    return out


def labels_of(task: str | None, context: Iterable[str], insights: Iterable[str], tags: Iterable[str],
              metadata: dict[str, Any]) -> tuple[Label, ...]:
    """Every label a memory with these fields carries."""
    out: list[Label] = [("all",)]
    if task is not None:
        out.append(("task", task))
    out += [("context", v) for v in context] + [("insights", v) for v in insights] + [("tags", v) for v in tags]
    for key, value in metadata.items():
        out += key_labels(key, value)
    return tuple(dict.fromkeys(out))


def family_rows(conn: sqlite3.Connection, family: Family) -> Iterator[tuple[int, tuple[Label, ...]]]:
    """(key hash, the row's labels in `family`) for every memory with at least one, read in one scan."""
    kind = family[0]
    if kind == "all":
        for (kh,) in conn.execute("SELECT key_hash FROM memories"):
            yield from_db(kh), (("all",),)
    elif kind == "task":
        for kh, task in conn.execute("SELECT key_hash, task FROM memories WHERE task IS NOT NULL"):
            yield from_db(kh), (("task", task),)
    elif kind in LIST_FIELDS:
        # most rows hold an empty list: only the others are parsed
        for kh, text in conn.execute(f"SELECT key_hash, {kind} FROM memories "
                                     f"WHERE {kind} IS NOT NULL AND {kind} != '[]'"):
            labels = tuple(dict.fromkeys((kind, v) for v in json.loads(text)))
            if labels:
                yield from_db(kh), labels
    else:
        yield from _key_rows(conn, family[1])


def _key_rows(conn: sqlite3.Connection, key: str) -> Iterator[tuple[int, tuple[Label, ...]]]:
    # a text, an integer SQLite holds as one, true (1) and false (0) label as their SQL value does; a real, a
    # container or a huge integer is parsed by Python from the row's text, so its labels are `labels_of`'s
    rows = conn.execute(
        "SELECT m.key_hash, j.value, CASE WHEN j.type IN ('text', 'integer', 'true', 'false') "
        "AND (j.type != 'integer' OR typeof(j.value) = 'integer') THEN NULL ELSE m.metadata END "
        "FROM memories AS m, json_each(m.metadata) AS j "
        "WHERE j.key = ? AND j.type != 'null' AND instr(m.metadata, ?) = 0", (key, _NUL))
    for kh, value, text in rows:
        if text is not None:
            value = json.loads(text)[key]
        yield from_db(kh), tuple(dict.fromkeys(key_labels(key, value)))
    # json_each cuts keys and strings at U+0000: rows holding one (written before writes refused it,
    # memories/strings.py) are parsed by Python whole
    for kh, text in conn.execute("SELECT key_hash, metadata FROM memories WHERE instr(metadata, ?) > 0", (_NUL,)):
        labels = key_labels(key, json.loads(text).get(key))
        if labels:
            yield from_db(kh), tuple(dict.fromkeys(labels))
