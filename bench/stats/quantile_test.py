"""A test of one quantile: do two samples differ at their q-quantile? (Mood's median test, generalised.)

Both samples are split at the q-quantile of the pooled sample; Fisher's exact test on the
2x2 table (at or below / above, per sample) asks whether one sample has fewer values at
or below that point than the other. At q = 0.5 this is Mood's median test. Unlike a rank
test, which looks at the whole distributions, it answers for the one quantile that is
reported (p50, p95, p10...), so its direction agrees with that quantile's.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
from scipy.stats import fisher_exact

from bench.stats.result import TestResult


def quantile_test(x: Sequence[float], y: Sequence[float], q: float,
                  alternative: Literal["greater", "less", "two-sided"] = "greater") -> TestResult:
    """Test whether `y`'s q-quantile is larger (`greater`), smaller or different from `x`'s.

    `statistic` is the difference of the two samples' q-quantiles (y minus x, numpy's linear
    interpolation). An empty sample or a split that leaves a side empty gives p = 1.
    """
    if not 0 < q < 1:
        raise ValueError(f"quantile must be strictly between 0 and 1, got {q}")
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if a.size == 0 or b.size == 0:
        return TestResult(0.0, 1.0, int(a.size + b.size), "quantile-fisher")
    diff = float(np.quantile(b, q) - np.quantile(a, q))
    cut = float(np.quantile(np.concatenate([a, b]), q))
    a_low, b_low = int((a <= cut).sum()), int((b <= cut).sum())
    table = [[a_low, a.size - a_low], [b_low, b.size - b_low]]
    if a_low + b_low == 0 or a_low + b_low == a.size + b.size:
        return TestResult(diff, 1.0, int(a.size + b.size), "quantile-fisher")
    # odds ratio > 1: x has more values at or below the cut than y, i.e. y is larger there
    p = float(fisher_exact(table, alternative=alternative).pvalue)
    return TestResult(diff, min(1.0, p), int(a.size + b.size), "quantile-fisher")
