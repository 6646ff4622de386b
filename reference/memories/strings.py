"""Which strings a memory may hold: UTF-8 text everywhere, and no U+0000 in what a filter matches.

- Every string (the text, each tag, each metadata key and string value) must encode as UTF-8: the
  blob, the FTS index and SQLite store UTF-8, and a lone surrogate (what a JSON `"\\ud800"` escape
  decodes to) cannot be encoded, so the write would fail deep inside with an error naming no argument.
- A label (a tag, a metadata key or string value) may not hold U+0000: SQLite's JSON functions end a
  string there, so neither the SQL filter nor the label index read in SQL could match the value as it
  was written (`"a\\u0000b"` read back as `"a"`). A memory's text may hold it.

`problem(s, label=...)` says what is wrong with one string (None: nothing); `problem_at(value, path)` finds
the first key or string inside a JSON value with a problem and names where.
"""
from __future__ import annotations

from typing import Any

NUL = "holds U+0000 (NUL), which a filter cannot match (SQLite's JSON functions cut a string there)"


def problem(s: str, *, label: bool) -> str | None:
    """What makes `s` unfit to store (as a label when `label`), or None."""
    if label and "\x00" in s:
        return NUL
    if s.isascii():
        return None
    try:
        s.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"holds a lone surrogate U+{ord(s[exc.start]):04X} at index {exc.start}, which is not UTF-8 text"
    return None


def problem_at(value: Any, path: str) -> str | None:
    """`"<path> <problem>"` for the first key or string inside a JSON value unfit as a label, or None."""
    if isinstance(value, str):
        why = problem(value, label=True)
        return None if why is None else f"{path} {why}"
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for k, v in items:
        if isinstance(k, str):
            why = problem(k, label=True)
            if why is not None:
                return f"{path} key {k!r} {why}"
        found = problem_at(v, f"{path}[{k!r}]")
        if found is not None:
            return found
    return None
