"""Turn Hyperscan's match events into exactly the matches `re.finditer` yields.

Match semantics of a scan (documented in README.md): for each pattern, the
matches are those of `re.finditer(pattern, data)` on the bytes, with the set's
flags: leftmost start first, the span `re` picks at that start (greedy, lazy
and alternation order as in `re`), non-overlapping within one pattern;
patterns may overlap each other. The list is sorted by (start, pattern index).

Why this is exact. Hyperscan with HS_FLAG_SOM_LEFTMOST reports, for every end
offset `e` at which pattern `i` can match, the leftmost start `L(e)` of a
match ending there. Every `re` match `[s, e)` is also a match of the same
regular language, so `e` is reported and `L(e) <= s`: each `re` match lies
inside one interval `[L(e), e)`. Merging the overlapping intervals of one
pattern gives disjoint components that cover all its `re` matches and no
position outside them can start one. `re.finditer` visits positions left to
right and, where a match starts, jumps to its end; replaying that walk with
`regex.match(data, s)` only inside the components gives the same matches,
while `re` never scans the bytes between them. `match(data, s)` sees the
whole buffer, so `^`, `$` and `\b` judge the same neighbours as `finditer`.

Hyperscan does not report a later start whose end also has an earlier start
(pattern `x|x?zy` on `xzy` gives only (0,1) and (0,3), yet `re` finds (0,1)
and (1,3)), which is why components are walked position by position after a
failed `match` and not only at reported starts.
"""
from __future__ import annotations

import re
from collections.abc import Sequence


def confirm_events(events: list[tuple], regexes: Sequence[re.Pattern[bytes]], data: bytes) -> list[tuple[int, int, int]]:
    """Return `(start, index, end)` triples in `re.finditer` semantics, sorted.

    `events` holds Hyperscan callback tuples `(index, from, to, ...)`; it is
    sorted in place. Empty `re` matches are skipped (Hyperscan refuses patterns
    that can match empty, so none arise from an accepted set).
    """
    events.sort()
    out: list[tuple[int, int, int]] = []
    append = out.append
    n = len(events)
    i = 0
    while i < n:
        idx, a, b = events[i][0], events[i][1], events[i][2]
        match = regexes[idx].match
        i += 1
        p = 0  # where re.finditer would resume for this pattern
        while True:
            while i < n and events[i][0] == idx and events[i][1] < b:
                if events[i][2] > b:
                    b = events[i][2]
                i += 1
            s = a if a > p else p
            while s < b:
                m = match(data, s)
                if m is None:
                    s += 1
                    continue
                e = m.end()
                if e > s:
                    append((s, idx, e))
                    s = e
                else:
                    s += 1
            p = s
            if i < n and events[i][0] == idx:
                a, b = events[i][1], events[i][2]
                i += 1
            else:
                break
    out.sort()
    return out
