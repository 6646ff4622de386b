"""What a pattern's parse tree says about where its matches can start.

Hyperscan's start-of-match tracking (HS_FLAG_SOM_LEFTMOST) costs scan speed,
up to three times for patterns such as `#[^\\n]*foo`. It is only needed when
nothing else bounds the start of a match ending at offset `e`:

- `max_width`: a pattern whose matches are at most W bytes long starts at or
  after `e - W`;
- `newline_free`: a pattern that cannot consume a newline starts on the line
  that holds `e`.

`shape_of` computes both conservatively from `re`'s parse tree (any
construct it does not know is assumed to be unbounded and to cross lines).
"""
from __future__ import annotations

from dataclasses import dataclass

try:  # Python 3.11+
    from re import _constants as _c, _parser as _p
except ImportError:  # pragma: no cover
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

MAX_WINDOW = 4096  # a wider bound is no cheaper to confirm than a tracked start

# categories that cannot match "\n"; any other category is assumed to
_NO_NL_CATEGORIES = {_c.CATEGORY_DIGIT, _c.CATEGORY_NOT_SPACE, _c.CATEGORY_WORD, _c.CATEGORY_NOT_LINEBREAK}
_NL = 10


@dataclass(frozen=True)
class PatternShape:
    """`max_width` in bytes (None: unbounded or wider than MAX_WINDOW); `newline_free`; `min_width`, a
    lower bound on a match's length (no shorter input can hold a match)."""

    max_width: int | None
    newline_free: bool
    min_width: int = 0

    @property
    def needs_som(self) -> bool:
        return self.max_width is None and not self.newline_free


def shape_of(tree: _p.SubPattern, flags: int) -> PatternShape:
    """The shape of a parsed pattern under the set's `re` flags."""
    lo, hi = tree.getwidth()
    width = hi if hi <= MAX_WINDOW else None
    dotall = bool((flags | tree.state.flags) & _c.SRE_FLAG_DOTALL)
    return PatternShape(width, not _may_consume_newline(tree, dotall), lo)


def _may_consume_newline(items, dotall: bool) -> bool:
    for op, av in items:
        if op is _c.LITERAL:
            hit = av == _NL
        elif op is _c.NOT_LITERAL:
            hit = av != _NL
        elif op is _c.ANY:
            hit = dotall
        elif op is _c.IN:
            hit = _class_has_newline(av)
        elif op is _c.AT:
            hit = False
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT):
            hit = av[1] > 0 and _may_consume_newline(av[2], dotall)
        elif op is _c.SUBPATTERN:
            _group, add, delete, sub = av
            inner = (dotall or bool(add & _c.SRE_FLAG_DOTALL)) and not (delete & _c.SRE_FLAG_DOTALL)
            hit = _may_consume_newline(sub, inner)
        elif op is _c.BRANCH:
            hit = any(_may_consume_newline(alt, dotall) for alt in av[1])
        else:  # anything unexpected: assume the worst
            hit = True
        if hit:
            return True
    return False


def _class_has_newline(members) -> bool:
    negate, has = False, False
    for op, av in members:
        if op is _c.NEGATE:
            negate = True
        elif op is _c.LITERAL:
            has |= av == _NL
        elif op is _c.RANGE:
            has |= av[0] <= _NL <= av[1]
        elif op is _c.CATEGORY:
            has |= av not in _NO_NL_CATEGORIES
        else:
            has = True
    return has != negate
