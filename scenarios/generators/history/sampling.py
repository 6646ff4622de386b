"""Which commits ask a query: spread evenly over the scored part of the history.

The first CALIBRATION_SHARE of each history's non-merge default-branch
commits is the calibration split: no scored query is asked there (a tuning
script may ask its own; `scenarios build --split calibration` writes them).
Of the eligible commits in a split, at most QUERY_CAP are asked, taken at
evenly spaced positions over the whole split (the i-th of Q is at
floor((i + 0.5) * n / Q)), so every part of the history is queried.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

CALIBRATION_SHARE = 0.3
QUERY_CAP = 150
SPLITS = ("scored", "calibration")


def split_start(n_commits: int, split: str) -> tuple[int, int]:
    """[start, end) positions (in the non-merge default-branch order) a split's queries come from."""
    cut = math.ceil(CALIBRATION_SHARE * n_commits)
    if split == "scored":
        return cut, n_commits
    if split == "calibration":
        return 0, cut
    raise ValueError(f"unknown split {split!r}; known: {', '.join(SPLITS)}")


def spread(eligible: Sequence[int], cap: int = QUERY_CAP) -> set[int]:
    """At most `cap` of the eligible positions, evenly spaced over all of them."""
    n = len(eligible)
    if n <= cap:
        return set(eligible)
    return {eligible[math.floor((i + 0.5) * n / cap)] for i in range(cap)}
