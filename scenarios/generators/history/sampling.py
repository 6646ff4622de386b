"""Which commits ask a query: calibration commits never; the rest spread evenly over the whole history.

The project's calibration split (scenarios/README.md, "Calibration split"):
the default-branch commit at 0-based position i of `commits.jsonl` is a
calibration commit when i % CALIBRATION_EVERY == 0 (for branch commits, the
position in `branch_commits.jsonl`). Scored scenarios never ask a query about
a calibration commit; `scenarios build --split calibration` writes
`<data>-<task>-calibration` scenarios that ask only about them. Of the
eligible commits, at most QUERY_CAP are asked, taken at evenly spaced
positions over all of them (the i-th of Q at floor((i + 0.5) * n / Q)), so
every part of the history is queried.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

CALIBRATION_EVERY = 10
QUERY_CAP = 150
SPLITS = ("scored", "calibration")


def in_split(position: int, split: str) -> bool:
    """Whether the commit at this position of its data file may be asked in `split`."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; known: {', '.join(SPLITS)}")
    return (position % CALIBRATION_EVERY == 0) == (split == "calibration")


def spread(eligible: Sequence[int], cap: int = QUERY_CAP) -> set[int]:
    """At most `cap` of the eligible positions, evenly spaced over all of them."""
    n = len(eligible)
    if n <= cap:
        return set(eligible)
    return {eligible[math.floor((i + 0.5) * n / cap)] for i in range(cap)}
