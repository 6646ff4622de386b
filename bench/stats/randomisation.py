"""Paired randomisation (sign-flip permutation) test on the mean difference, two-sided.

Under the null hypothesis that two systems are exchangeable on each query, every
per-query difference is as likely to have the opposite sign. The p-value is the share of
sign assignments whose mean difference is at least as far from 0 as the observed one.
With at most `exact_max` non-zero differences all 2^m assignments are enumerated (exact
p); otherwise `permutations` random assignments from a seeded generator give the
Monte-Carlo estimate (1 + hits) / (1 + permutations), which is never 0. Both are
deterministic for the same input and seed.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bench.stats.result import TestResult

# relative slack so that a permuted mean equal to the observed one (up to rounding) counts as a hit
_TOL = 1e-9
_CHUNK = 2048


def _differences(x: Sequence[float], y: Sequence[float]) -> np.ndarray:
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"paired samples must be two flat sequences of equal length, got {a.shape} and {b.shape}")
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise ValueError("paired samples must be finite numbers")
    return b - a


def _exact_hits(d: np.ndarray, threshold: float) -> tuple[int, int]:
    m = d.size
    codes = np.arange(2 ** m, dtype=np.int64)[:, None]
    signs = 1.0 - 2.0 * ((codes >> np.arange(m)) & 1)
    sums = np.abs(signs @ d)
    return int((sums >= threshold).sum()), 2 ** m


def _monte_carlo_hits(d: np.ndarray, threshold: float, permutations: int, seed: int) -> int:
    rng = np.random.default_rng(seed)
    hits, left = 0, permutations
    while left:
        n = min(left, _CHUNK)
        signs = rng.choice(np.array([-1.0, 1.0]), size=(n, d.size))
        hits += int((np.abs(signs @ d) >= threshold).sum())
        left -= n
    return hits


def paired_randomisation_test(x: Sequence[float], y: Sequence[float], *, seed: int = 0,
                              permutations: int = 10_000, exact_max: int = 12) -> TestResult:
    """Test whether mean(y - x) differs from 0; `statistic` is that mean difference.

    Zero differences are kept in the mean but cannot change sign, so they do not enter
    the enumeration. No non-zero difference gives p = 1. Raises ValueError on unequal
    lengths, non-finite values or `permutations` < 1.
    """
    if permutations < 1:
        raise ValueError("permutations must be at least 1")
    d = _differences(x, y)
    n = int(d.size)
    mean = float(d.mean()) if n else 0.0
    nz = d[d != 0]
    if nz.size == 0:
        return TestResult(mean, 1.0, n, "exact")
    observed = abs(float(nz.sum()))
    threshold = observed - _TOL * max(1.0, observed)
    if nz.size <= exact_max:
        hits, total = _exact_hits(nz, threshold)
        return TestResult(mean, hits / total, n, "exact")
    hits = _monte_carlo_hits(nz, threshold, permutations, seed)
    return TestResult(mean, (hits + 1) / (permutations + 1), n, "monte-carlo")
