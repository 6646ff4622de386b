"""`TestResult`: what every statistical test in `bench.stats` returns."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TestResult:
    """A test's statistic, its p-value, the sample size and how it was computed.

    `statistic` is test-specific (mean paired difference, t, U); `method` names the
    computation (for example `exact` or `monte-carlo` for the randomisation test).
    """

    __test__ = False  # not a pytest test class, despite the name

    statistic: float
    p_value: float
    n: int
    method: str
