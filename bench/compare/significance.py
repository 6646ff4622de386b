"""Paired per-query tests of every ranking metric of a scenario, Holm-corrected across the metrics."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from statistics import fmean
from typing import Any

from bench.compare.direction import direction
from bench.compare.pairing import align, metric_names, paired
from bench.stats import holm, paired_randomisation_test, paired_t_test


@dataclass(frozen=True)
class MetricTest:
    """One metric of one scenario (or category): both means, the difference and its p-values.

    `diff` is current (or candidate) minus baseline (or reference); `p_randomisation` and
    `p_t` are two-sided; `p_holm` is the randomisation p after Holm's correction over the
    metrics tested together, the figure to hold against alpha.
    """

    metric: str
    direction: str
    n: int
    baseline: float
    current: float
    diff: float
    p_randomisation: float
    p_t: float
    p_holm: float

    def to_dict(self) -> dict[str, Any]:
        return {k: (float(v) if isinstance(v, float) else v) for k, v in asdict(self).items()}  # full precision


def compare_metrics(scenario: str, base: list[dict[str, Any]], cur: list[dict[str, Any]], *,
                 metrics: list[str] | None = None, seed: int = 0, permutations: int = 10_000
                 ) -> list[MetricTest]:
    """Test each metric (default: every one the queries report) on the queries the two runs share.

    Raises QueryMismatch when the runs hold different queries.
    """
    pairs = align(scenario, base, cur)
    names = metric_names(base) if metrics is None else [m for m in metrics if m in metric_names(base)]
    raw = []
    for m in names:
        xs, ys = paired(scenario, pairs, m)
        if not xs:
            continue
        rt = paired_randomisation_test(xs, ys, seed=seed, permutations=permutations)
        raw.append((m, xs, ys, rt.p_value, paired_t_test(xs, ys).p_value))
    adjusted = holm([r[3] for r in raw])
    return [MetricTest(m, direction(m), len(xs), fmean(xs), fmean(ys), fmean(ys) - fmean(xs), p_r, p_t, p_h)
            for (m, xs, ys, p_r, p_t), p_h in zip(raw, adjusted)]
