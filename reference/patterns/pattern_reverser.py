"""Write a pattern backwards, so Hyperscan can find match starts without SOM tracking.

A match `[s, e)` of pattern P in `data` is a match `[n - e, n - s)` of the
reversed pattern in `data[::-1]`. Scanning the reversed bytes with the
reversed pattern therefore reports, as end offsets, every position where a
match of P starts, and Hyperscan reports ends without start-of-match
tracking, which costs up to four times the scan time on source code.

`reverse_pattern` prints the reversed regex from `re`'s parse tree, or
returns None for what it does not reverse: anchors (`^`, `$`, `\\A`, `\\Z`
change meaning when reversed) and any construct it does not know. Word
boundaries reverse to themselves (`\\b` at a position looks at the same two
bytes either way). Literals are printed as `\\xHH` so no escaping can go wrong.
"""
from __future__ import annotations

try:  # Python 3.11+
    from re import _constants as _c, _parser as _p
except ImportError:  # pragma: no cover
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

_CATEGORIES = {_c.CATEGORY_DIGIT: r"\d", _c.CATEGORY_NOT_DIGIT: r"\D", _c.CATEGORY_SPACE: r"\s",
               _c.CATEGORY_NOT_SPACE: r"\S", _c.CATEGORY_WORD: r"\w", _c.CATEGORY_NOT_WORD: r"\W"}
_AT = {_c.AT_BOUNDARY: r"\b", _c.AT_NON_BOUNDARY: r"\B"}
_FLAG_LETTERS = ((_c.SRE_FLAG_IGNORECASE, "i"), (_c.SRE_FLAG_MULTILINE, "m"), (_c.SRE_FLAG_DOTALL, "s"))


class _Irreversible(Exception):
    pass


def reverse_pattern(tree: _p.SubPattern) -> str | None:
    """The reversed pattern (global inline flags not included), or None."""
    try:
        return _seq(list(tree))
    except _Irreversible:
        return None


def _seq(items) -> str:
    return "".join(_item(op, av) for op, av in reversed(list(items)))


def _item(op, av) -> str:
    if op is _c.LITERAL:
        return f"\\x{av:02x}"
    if op is _c.NOT_LITERAL:
        return f"[^\\x{av:02x}]"
    if op is _c.ANY:
        return "."
    if op is _c.IN:
        return _class(av)
    if op is _c.AT:
        if av not in _AT:
            raise _Irreversible
        return _AT[av]
    if op is _c.BRANCH:
        return "(?:" + "|".join(_seq(alt) for alt in av[1]) + ")"
    if op is _c.SUBPATTERN:
        _group, add, delete, sub = av
        on = "".join(ch for bit, ch in _FLAG_LETTERS if add & bit)
        off = "".join(ch for bit, ch in _FLAG_LETTERS if delete & bit)
        return f"(?{on}{'-' + off if off else ''}:{_seq(sub)})"
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT):  # laziness does not matter: Hyperscan reports every match
        lo, hi, sub = av
        upper = "" if hi >= _c.MAXREPEAT else str(hi)
        return f"(?:{_seq(sub)}){{{lo},{upper}}}"
    raise _Irreversible


def _class(members) -> str:
    out = []
    for op, av in members:
        if op is _c.NEGATE:
            out.insert(0, "^")
        elif op is _c.LITERAL:
            out.append(f"\\x{av:02x}")
        elif op is _c.RANGE:
            out.append(f"\\x{av[0]:02x}-\\x{av[1]:02x}")
        elif op is _c.CATEGORY and av in _CATEGORIES:
            out.append(_CATEGORIES[av])
        else:
            raise _Irreversible
    return "[" + "".join(out) + "]"
