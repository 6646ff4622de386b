"""Allow-lists: Python regexes that veto a pattern's match when they describe its value as harmless.

A set's optional `allow` field is a list of entries `{"names": [...], "patterns": [...]}`.
A match of a pattern named in `names` is dropped when one of the entry's `patterns`
matches (Python `re`, the set's flags not applied) starting exactly where the match's
value starts -- its `secret` group when it has one, else the whole match -- and its
match reaches at least to the value's end. It may read past the end, so `\\w+\\(`
vetoes `get_token` in `get_token()`: a look-ahead Hyperscan itself lacks.

Vetoes run in Python after the Hyperscan scan, only on the few matches of the named
patterns, so they cost nothing on text without candidates.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from reference.patterns.errors import PatternError

ENTRY_FIELDS = ("names", "patterns")


def parse_allow(value: object, names: Sequence[str], fail: Callable[..., PatternError]) -> list[dict[str, list[str]]]:
    """Validate the `allow` field against the set's pattern names; return it normalised."""
    if not isinstance(value, list):
        raise fail("'allow' must be a list of {\"names\": [...], \"patterns\": [...]} entries")
    out = []
    for k, entry in enumerate(value):
        if not isinstance(entry, dict) or set(entry) != set(ENTRY_FIELDS):
            raise fail(f"allow entry #{k} must have exactly the fields 'names' and 'patterns'")
        lists = [entry[f] for f in ENTRY_FIELDS]
        if not all(isinstance(v, list) and v and all(isinstance(x, str) and x for x in v) for v in lists):
            raise fail(f"allow entry #{k}: 'names' and 'patterns' must be non-empty lists of strings")
        unknown = [n for n in entry["names"] if n not in names]
        if unknown:
            raise fail(f"allow entry #{k} names unknown pattern(s) {', '.join(map(repr, unknown[:5]))}")
        for p in entry["patterns"]:
            try:
                re.compile(p.encode("utf-8"))
            except re.error as exc:
                raise fail(f"allow entry #{k}: pattern {p[:60]!r} is not a valid regex: {exc}") from None
        out.append({"names": list(entry["names"]), "patterns": list(entry["patterns"])})
    return out


class AllowList:
    """Compiled vetoes per pattern index; `vetoed(index, data, start, end)` asks one match."""

    def __init__(self, allow: list[dict[str, list[str]]], names: Sequence[str]) -> None:
        by_name: dict[str, list[re.Pattern[bytes]]] = {}
        for entry in allow:
            regexes = [re.compile(p.encode("utf-8")) for p in entry["patterns"]]
            for name in entry["names"]:
                by_name.setdefault(name, []).extend(regexes)
        self.by_index = {i: by_name[n] for i, n in enumerate(names) if n in by_name}

    def __bool__(self) -> bool:
        return bool(self.by_index)

    def vetoed(self, index: int, data: bytes, start: int, end: int) -> bool:
        """True when an allow pattern of `index` matches at `start` and covers `data[start:end]`."""
        for regex in self.by_index.get(index, ()):
            m = regex.match(data, start)
            if m is not None and m.end() >= end:
                return True
        return False
