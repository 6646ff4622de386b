"""Statistics for comparing runs: paired tests on per-query figures, a rank test on latency samples.

One concept per module: `randomisation` (paired sign-flip test), `paired_t`, `holm` (multiple-testing
correction), `mann_whitney` (rank test, via scipy),
`quantile_test` (one quantile, Fisher's exact test on a split at the pooled quantile). Every test returns a `TestResult`.
"""
from bench.stats.holm import holm
from bench.stats.mann_whitney import mann_whitney
from bench.stats.paired_t import paired_t_test
from bench.stats.quantile_test import quantile_test
from bench.stats.randomisation import paired_randomisation_test
from bench.stats.result import TestResult

__all__ = ["TestResult", "holm", "mann_whitney", "paired_randomisation_test", "paired_t_test", "quantile_test"]
