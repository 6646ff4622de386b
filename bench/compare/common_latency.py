"""Latency rows of a comparison, over the steps that every compared backend ran.

A backend that does not support a step has no timing for it, so its overall figures
come from fewer, often cheaper, steps: a store without graph support "wins" graph-pit's
p95 on directives alone. Here a step type counts only if it is a tool step (directives
are the harness's own work) and every backend ran it the same number of times; the
others are listed as excluded. Two groups are built from the per-step samples of the
step types kept: `common` (all of them) and `common_queries` (those whose telemetry op
is `query`). Each percentile of each group gets its own two-sided quantile test against
the reference (Holm over groups, percentiles and backends of the scenario), so a star
on p95 says p95 moved, whatever p50 did.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from bench.compare.direction import direction
from bench.stats import holm, quantile_test
from bench.steps import STEPS

GROUPS = ("common", "common_queries")
STATS = {"p50": 0.50, "p95": 0.95, "p99": 0.99}


def _ran(section: dict[str, Any], step: str) -> int:
    return int(section["latency_ms"].get(step, {}).get("n") or 0) if section.get("latency_samples_ms", {}).get(step) else 0


def common_steps(sections: dict[str, dict[str, Any]]) -> tuple[list[str], dict[str, str]]:
    """Tool step types every backend ran equally often, and why each other one was left out."""
    names = sorted({g for s in sections.values() for g in s["latency_ms"]
                    if g in STEPS and STEPS[g].kind == "tool"})
    kept, excluded = [], {}
    for step in names:
        counts = {b: _ran(s, step) for b, s in sections.items()}
        if len(set(counts.values())) == 1 and next(iter(counts.values())) > 0:
            kept.append(step)
        else:
            excluded[step] = "run " + ", ".join(f"{n}x by {b}" for b, n in counts.items())
    return kept, excluded


def _samples(section: dict[str, Any], steps: list[str]) -> list[float]:
    return [v for step in steps for v in section["latency_samples_ms"][step]]


def latency_rows(sections: dict[str, dict[str, Any]], ref: str, alpha: float
                 ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The latency rows of one scenario, and which step types they cover (`latency_steps`)."""
    kept, excluded = common_steps(sections)
    groups = {"common": kept, "common_queries": [s for s in kept if STEPS[s].op == "query"]}
    samples = {g: {b: _samples(s, steps) for b, s in sections.items()} for g, steps in groups.items() if steps}
    raw: dict[tuple[str, str, str], Any] = {}
    for g, by_backend in samples.items():
        for stat, q in STATS.items():
            for b in sections:
                if b != ref:
                    raw[(g, stat, b)] = quantile_test(by_backend[ref], by_backend[b], q, alternative="two-sided")
    adjusted = dict(zip(raw, holm([t.p_value for t in raw.values()])))
    rows = []
    for g, by_backend in samples.items():
        for stat, q in STATS.items():
            metric = f"latency.{g}.{stat}"
            values = {b: float(np.quantile(v, q)) for b, v in by_backend.items()}
            vs = {}
            for b in sections:
                if b != ref:
                    t, p = raw[(g, stat, b)], adjusted[(g, stat, b)]
                    vs[b] = {"diff": values[b] - values[ref], "p_quantile": float(t.p_value),
                             "p_holm": float(p), "significant": bool(p < alpha)}
            rows.append({"metric": metric, "direction": direction(metric), "values": values, "vs_reference": vs,
                         "n": {b: len(v) for b, v in by_backend.items()}})
    return rows, {"common": kept, "excluded": excluded}
