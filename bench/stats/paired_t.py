"""Paired t-test on the mean difference, two-sided."""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy.stats import t as student_t

from bench.stats.result import TestResult


def paired_t_test(x: Sequence[float], y: Sequence[float]) -> TestResult:
    """t = mean(d) / (sd(d) / sqrt(n)) with d = y - x and n - 1 degrees of freedom.

    Degenerate cases, where the t statistic is undefined, are decided without it:
    fewer than 2 pairs or all differences 0 give p = 1 (no evidence); identical non-zero
    differences (sd 0) give p = 0 and t = ±inf. Raises ValueError on unequal lengths.
    """
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"paired samples must be two flat sequences of equal length, got {a.shape} and {b.shape}")
    d = b - a
    n = int(d.size)
    if n < 2:
        return TestResult(float(d.mean()) if n else 0.0, 1.0, n, "paired-t")
    mean, sd = float(d.mean()), float(d.std(ddof=1))
    if sd == 0.0:
        if mean == 0.0:
            return TestResult(0.0, 1.0, n, "paired-t")
        return TestResult(math.copysign(math.inf, mean), 0.0, n, "paired-t")
    t = mean / (sd / math.sqrt(n))
    p = float(2 * student_t.sf(abs(t), n - 1))
    return TestResult(t, min(1.0, p), n, "paired-t")
