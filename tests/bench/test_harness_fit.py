"""`bench_harness_scaling.fit`: a fixed cost plus a per-step cost, and a residual that shows a quadratic part."""
from __future__ import annotations

import pytest

from bench.benchmarks.bench_harness_scaling import fit

STEPS = (525, 1050, 2100, 4200)


def test_a_linear_harness_is_its_fixed_and_per_step_costs():
    line = fit([{"steps": s, "harness_s": 0.4 + s * 1e-4} for s in STEPS])
    assert line == {"fixed_s": pytest.approx(0.4), "per_step_ms": pytest.approx(0.1), "worst_residual": 0.0}


def test_a_quadratic_part_shows_in_the_residual():
    line = fit([{"steps": s, "harness_s": 0.4 + (s / 1000) ** 2} for s in STEPS])
    assert line["worst_residual"] > 1 and line["fixed_s"] < 0
