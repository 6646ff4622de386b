"""Turn Hyperscan's match events into exactly the matches `re.finditer` yields.

Match semantics of a scan (also in README.md): for each pattern, the matches
are those of `re.finditer(pattern, data)` on the bytes with the set's flags:
leftmost start first, the span `re` picks at that start (greedy, lazy and
alternation order as in `re`), non-overlapping within one pattern; different
patterns may overlap. The list is sorted by (start, pattern index).

Why it is exact. Hyperscan reports every end offset `e` at which a pattern
can match. For each event we know a window `[a, e)` that holds the start of
every match ending at `e`: the leftmost start (HS_FLAG_SOM_LEFTMOST) for
patterns that need it, else `e - max_width` or the start of `e`'s line (see
`pattern_shape`). An `re` match `[s, e)` is a match of the same regular
language (`pattern_checker` admits only patterns both engines read alike),
so `e` is reported and `s` lies in its window. Merging overlapping windows of
one pattern gives disjoint components `[a, b)`; every `re` match lies inside
one, and no position outside them starts one. Replaying `re.finditer`'s walk
inside the components yields the same matches while `re` never looks at the
bytes between them.

The walk uses `regex.search(data, s, b + 2)`. Cutting the buffer there
changes no assertion at a position `<= b` (`$` and `\\Z` only fire at the cut
or just before a final newline, `\\b` sees the next byte), and a genuine match
ends by `b`, so the first match `re` finds with the cut is the genuine one,
unless it ends after `b`: such a match is an artefact of the cut and that
start is re-tried on the whole buffer with `regex.match`. Positions before
`s` stay visible, so `^` and `\\b` at `s` judge the true neighbour.

Hyperscan's reported starts alone are not enough: for `x|x?zy` on `xzy` it
reports (0,1) and (0,3) only, yet `re` finds (0,1) and (1,3).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import NamedTuple


class ConfirmPlan(NamedTuple):
    """How to bound the starts of one pattern's matches; see `pattern_shape`."""

    regex: re.Pattern[bytes]
    som: bool  # events carry Hyperscan's leftmost start
    width: int  # max match length, 0 if unbounded
    line_bounded: bool  # matches never cross a newline


def confirm_events(events: list[tuple], plans: Sequence[ConfirmPlan], data: bytes,
                   check_time: Callable[[], None] | None = None) -> list[tuple[int, int, int]]:
    """Return `(start, index, end)` triples in `re.finditer` semantics, sorted.

    `check_time`, if given, is called between `re` confirmations and may raise to stop the scan.

    `events` holds Hyperscan callback tuples `(index, from, to, ...)`; it is
    sorted in place. Empty `re` matches are never reported (Hyperscan refuses
    patterns that can match empty, so none arise from an accepted set).
    """
    events.sort()
    out: list[tuple[int, int, int]] = []
    n, i = len(events), 0
    while i < n:
        idx = events[i][0]
        j = i + 1
        while j < n and events[j][0] == idx:
            j += 1
        _walk(_windows(events, i, j, plans[idx], data), plans[idx].regex, idx, data, out, check_time)
        i = j
    out.sort()
    return out


def _windows(events: list[tuple], i: int, j: int, plan: ConfirmPlan, data: bytes) -> list[tuple[int, int]]:
    """Start-bounding windows `(a, e)` of one pattern's events, sorted by `a`."""
    if plan.som:
        return [(ev[1], ev[2]) for ev in events[i:j]]
    width, rfind = plan.width, data.rfind
    spans = []
    for ev in events[i:j]:
        e = ev[2]
        a = e - width if width else 0
        if plan.line_bounded:
            line = rfind(b"\n", a, e) + 1
            if line > a:
                a = line
        spans.append((a if a > 0 else 0, e))
    return spans  # events are sorted by end, and the window start only grows with it


def _walk(spans: list[tuple[int, int]], regex: re.Pattern[bytes], idx: int, data: bytes,
          out: list[tuple[int, int, int]], check_time: Callable[[], None] | None = None) -> None:
    search, match, size = regex.search, regex.match, len(data)
    p = 0  # where re.finditer resumes for this pattern
    k, n = 0, len(spans)
    while k < n:
        a, b = spans[k]
        k += 1
        while k < n and spans[k][0] < b:
            if spans[k][1] > b:
                b = spans[k][1]
            k += 1
        s = a if a > p else p
        cut = b + 2 if b + 2 < size else size
        while s < b:
            if check_time is not None:
                check_time()
            m = search(data, s, cut)
            if m is None or m.start() >= b:
                break
            start, end = m.span()
            if end > b:  # the cut changed the outcome: ask again on the whole buffer
                m = match(data, start)
                end = m.end() if m is not None else start
            if end > start:
                out.append((start, idx, end))
                s = end
            else:
                s = start + 1
        if s > p:
            p = s
