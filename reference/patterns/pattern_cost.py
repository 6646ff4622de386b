"""Bounds on what a pattern may cost to compile and to confirm, checked before either is tried (issue 25).

Hyperscan finds where matches end in linear time, but the matches are confirmed
with Python `re` (`match_confirmer`), a backtracking engine, and Hyperscan's own
compile time grows with bounded repeats. Two shapes made calls run unbounded:
`(.*a){25}` (accepted, then one scan of a 16,000-character memory took 9.8 s in
`re`) and 256 patterns `a.{1000+i}b` (not compiled within 20 s). `check_cost`
refuses, with a reason a user can act on:

- **ambiguous nested repeats**: inside a group repeated more than once, an
  unbounded repeat (`*`, `+`, `{n,}`) whose characters overlap those that may
  follow it (`(.*a){25}`, `(a+)+`, `(\\w+\\s?)*`): `re` may try every way of
  splitting the text between them. The safe idiom, a repeat ended by a
  character it cannot match (`(?:[a-z0-9]+[_.-])*`), is accepted;
- **chains of ambiguous repeats**: more than `MAX_AMBIGUOUS` unbounded repeats
  in a row that overlap what follows them (`.*a.*a.*a.*a.*a`): each adds a
  factor of the text's length to a failing `re` search;
- **bounded repeats too large to compile**: more than `MAX_REPEAT_PATTERN`
  repeated items in one pattern (`.{5000}`), or `MAX_REPEAT_SET` in a set
  (Hyperscan builds them as counters; measured here, ~0.1 s per `a.{1000}b`).

This is a static rule on `re`'s parse tree, conservative where it cannot tell
(an item it does not know is taken to match anything). It cannot prove every
pattern fast; the scan itself also stops at a match count and a time budget
(`compiled_set.ScanBudget`).
"""
from __future__ import annotations

try:  # Python 3.11+
    from re import _constants as _c, _parser as _p
except ImportError:  # pragma: no cover
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

import re

MAX_AMBIGUOUS = 3             # ambiguous unbounded repeats in one sequence
MAX_REPEAT_PATTERN = 2_048    # repeated items one pattern may ask Hyperscan to count
MAX_REPEAT_SET = 8_192        # the same, over a whole set

ALL = frozenset(range(256))
_CATEGORY_RE = {
    _c.CATEGORY_DIGIT: rb"\d", _c.CATEGORY_NOT_DIGIT: rb"\D", _c.CATEGORY_SPACE: rb"\s",
    _c.CATEGORY_NOT_SPACE: rb"\S", _c.CATEGORY_WORD: rb"\w", _c.CATEGORY_NOT_WORD: rb"\W",
}
_CATEGORY = {cat: frozenset(b for b in range(256) if re.fullmatch(rx, bytes([b]))) for cat, rx in _CATEGORY_RE.items()}


class CostRefused(ValueError):
    """A pattern whose compile or confirmation cost has no good bound; `args[0]` says why."""


def repeat_weight(tree: _p.SubPattern) -> int:
    """Sum over bounded repeats of their upper count (what Hyperscan must build counters for)."""
    total, stack = 0, [tree]
    while stack:
        items = stack.pop()
        for op, av in items:
            if op in (_c.MAX_REPEAT, _c.MIN_REPEAT):
                lo, hi, body = av
                if hi != _c.MAXREPEAT:
                    total += hi
                elif lo > 1:
                    total += lo
                stack.append(body)
            elif op is _c.SUBPATTERN:
                stack.append(av[3])
            elif op is _c.BRANCH:
                stack.extend(av[1])
    return total


def check_cost(tree: _p.SubPattern, flags: int) -> None:
    """Raise `CostRefused` if the pattern parsed as `tree` has a shape listed in the module doc."""
    caseless = bool((flags | tree.state.flags) & _c.SRE_FLAG_IGNORECASE)
    dotall = bool((flags | tree.state.flags) & _c.SRE_FLAG_DOTALL)
    weight = repeat_weight(tree)
    if weight > MAX_REPEAT_PATTERN:
        raise CostRefused(f"its bounded repeats count {weight:,} items, more than {MAX_REPEAT_PATTERN:,} "
                          f"(Hyperscan's compile time grows with them)")
    _Walker(caseless, dotall).sequence(list(tree), inside_repeat=False)


class _Walker:
    def __init__(self, caseless: bool, dotall: bool) -> None:
        self.caseless, self.dotall = caseless, dotall

    def sequence(self, items: list, inside_repeat: bool, follow: frozenset[int] = frozenset()) -> None:
        """Check `items`; `follow`: what may come right after the sequence (used inside a repeat)."""
        ambiguous = 0
        for k, (op, av) in enumerate(items):
            after, empty = self.first(items[k + 1:])
            if empty:                               # the rest can be empty: what follows the sequence too
                after = after | follow
            if op in (_c.MAX_REPEAT, _c.MIN_REPEAT):
                lo, hi, body = av
                body = list(body)
                chars = self.chars(body)
                if hi == _c.MAXREPEAT and chars & after:
                    if inside_repeat:
                        raise CostRefused("a repeated group holds an unbounded repeat that overlaps what "
                                          "follows it (as in (.*a){25} or (a+)+): Python re, which confirms "
                                          "matches, may backtrack through every split of the text")
                    ambiguous += 1
                    if ambiguous > MAX_AMBIGUOUS:
                        raise CostRefused(f"more than {MAX_AMBIGUOUS} unbounded repeats in a row overlap what "
                                          f"follows them (as in .*a.*a.*a.*a): Python re, which confirms "
                                          f"matches, may take time growing as a power of the text's length")
                repeated = hi > 1
                # a body repeated more than once is followed by itself as well as by what comes after
                own_follow = (after | self.first(body)[0]) if repeated else after
                self.sequence(body, inside_repeat or repeated, own_follow)
            elif op is _c.SUBPATTERN:
                self.sequence(list(av[3]), inside_repeat, after)
            elif op is _c.BRANCH:
                for alt in av[1]:
                    self.sequence(list(alt), inside_repeat, after)

    def first(self, items: list) -> tuple[frozenset[int], bool]:
        """(bytes that may start `items`, whether `items` may match the empty string)."""
        out: set[int] = set()
        for op, av in items:
            if op is _c.AT:
                continue
            if op in (_c.MAX_REPEAT, _c.MIN_REPEAT):
                inner, empty = self.first(list(av[2]))
                out |= inner
                if av[0] > 0 and not empty:
                    return frozenset(out), False
                continue
            if op is _c.SUBPATTERN:
                inner, empty = self.first(list(av[3]))
                out |= inner
                if not empty:
                    return frozenset(out), False
                continue
            if op is _c.BRANCH:
                empty_any = False
                for alt in av[1]:
                    inner, empty = self.first(list(alt))
                    out |= inner
                    empty_any |= empty
                if not empty_any:
                    return frozenset(out), False
                continue
            return frozenset(out | self.single(op, av)), False
        return frozenset(out), True

    def chars(self, items: list) -> frozenset[int]:
        """Every byte `items` may consume (ALL for anything not a plain character item)."""
        out: set[int] = set()
        for op, av in items:
            if op is _c.AT:
                continue
            if op in (_c.MAX_REPEAT, _c.MIN_REPEAT):
                out |= self.chars(list(av[2]))
            elif op is _c.SUBPATTERN:
                out |= self.chars(list(av[3]))
            elif op is _c.BRANCH:
                for alt in av[1]:
                    out |= self.chars(list(alt))
            else:
                out |= self.single(op, av)
        return frozenset(out)

    def single(self, op, av) -> frozenset[int]:
        if op is _c.LITERAL:
            return self._case({av})
        if op is _c.NOT_LITERAL:
            return ALL - self._case({av})
        if op is _c.ANY:
            return ALL if self.dotall else ALL - {10}
        if op is _c.IN:
            return self._class(av)
        return ALL

    def _class(self, members) -> frozenset[int]:
        negate, out = False, set()
        for op, av in members:
            if op is _c.NEGATE:
                negate = True
            elif op is _c.LITERAL:
                out.add(av)
            elif op is _c.RANGE:
                out.update(range(av[0], min(av[1], 255) + 1))
            elif op is _c.CATEGORY:
                out |= _CATEGORY.get(av, ALL)
            else:
                out |= ALL
        out = self._case(out)
        return ALL - out if negate else frozenset(out)

    def _case(self, chars: set[int]) -> frozenset[int]:
        """`chars` with their ASCII case twins when caseless (a bytes pattern folds ASCII only)."""
        out = {c for c in chars if c < 256}
        if self.caseless:
            out |= {c ^ 0x20 for c in out if 65 <= c <= 90 or 97 <= c <= 122}
        return frozenset(out)
