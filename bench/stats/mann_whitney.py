"""Mann-Whitney U rank test (scipy) for "the samples of `y` tend to be larger than those of `x`"."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
from scipy.stats import mannwhitneyu

from bench.stats.result import TestResult


def mann_whitney(x: Sequence[float], y: Sequence[float],
                 alternative: Literal["greater", "less", "two-sided"] = "greater") -> TestResult:
    """U of `y` against `x` and its p-value (scipy's `method="auto"`: exact for small untied samples).

    `statistic` is U for `y`: the number of pairs (y_i, x_j) with y_i > x_j, ties counting
    one half. With `alternative="greater"` a small p says `y` is stochastically larger,
    which for latency samples means slower. An empty sample gives p = 1 (no evidence).
    """
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if a.size == 0 or b.size == 0:
        return TestResult(0.0, 1.0, int(a.size + b.size), "mann-whitney")
    if np.all(a == a[0]) and np.all(b == a[0]):
        # every sample equal: scipy's normal approximation divides by zero
        return TestResult(a.size * b.size / 2, 1.0, int(a.size + b.size), "mann-whitney")
    res = mannwhitneyu(b, a, alternative=alternative, method="auto")
    return TestResult(float(res.statistic), float(res.pvalue), int(a.size + b.size), "mann-whitney")
