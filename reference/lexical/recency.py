"""A recency prior over the write order: exp(-memories_ago / scale).

The newest row gets 1.0, a row written `scale` memories earlier 1/e. Counted
in memories written, not in seconds: a history's pace varies by orders of
magnitude (a burst of commits in a day, then a quiet month), and what an
agent is working on now is what it wrote last, whatever the calendar says.
Memories written at the same moment are equally recent: with the index's
write-time ticks (`LexicalIndex.ticks`) a row's age is the number of later
moments, so a batch of notes written at once gets one prior (no order to
speak of: the prior then changes no ranking), and a commit's hunks count as
one write. This is the decay part of seed 001's hybrid; how it joins the score
(seed 001's multiplication, score x (1 + w x prior), or added where the score
is positive) is `LexicalParams.recency_form`, applied by `ranking.with_prior`
and fitted by the calibration. Removed rows count as written (their numbers
stay), which the prior does not need to be exact about.
"""
from __future__ import annotations

import numpy as np

# past this many scales the prior is below exp(-12) ~ 6e-6 of its weight: rows further back get 0
_HORIZON = 12.0


def recency_prior(rows: int, scale: float, ticks: np.ndarray | None = None) -> np.ndarray:
    """Float64 by row 0..rows-1: exp(-ago / scale), `ago` = (rows - 1 - row), or with `ticks` (by row,
    non-decreasing) the newest row's tick minus the row's; 0 beyond the horizon or when scale <= 0."""
    out = np.zeros(rows, dtype=np.float64)
    start, tail = recency_tail(rows, scale, ticks)
    out[start:] = tail
    return out


def recency_tail(rows: int, scale: float, ticks: np.ndarray | None = None) -> tuple[int, np.ndarray]:
    """(start, values): `recency_prior` from row `start` on, where it is nonzero (before it, 0): at 100k rows
    the prior reaches a few hundred, and a search need not allocate, fill and add the rest."""
    if rows == 0 or scale <= 0:
        return rows, np.zeros(0, dtype=np.float64)
    if ticks is not None:
        t = ticks[:rows]
        start = int(np.searchsorted(t, t[-1] - _HORIZON * scale, side="left"))
        return start, np.exp(-(t[-1] - t[start:]).astype(np.float64) / scale)
    span = min(rows, int(_HORIZON * scale) + 1)
    ago = np.arange(span - 1, -1, -1, dtype=np.float64)
    return rows - span, np.exp(-ago / scale)
