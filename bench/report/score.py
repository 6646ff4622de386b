"""The codemem-bench score: one figure per backend, recomputable from a report alone.

See SCORING.md at the repository root for the formula and its rationale.
"""
from __future__ import annotations

from statistics import fmean
from typing import Any

SCORE_VERSION = 2
WEIGHTS = {"quality": 0.40, "correctness": 0.20, "targets": 0.20, "coverage": 0.10, "latency": 0.10}


def _scenario_components(s: dict[str, Any]) -> dict[str, float]:
    comp: dict[str, float] = {}
    if s["quality"]:
        comp["quality"] = s["quality"]["ndcg@10"]
    if s["checks"]["total"]:
        comp["correctness"] = s["checks"]["rate"]
    steps = s["steps"]
    if steps["total"]:
        comp["coverage"] = 1 - steps["unsupported"] / steps["total"]
    if s["targets"]:  # per scenario, so a scenario with many targets does not outweigh one with few
        comp["targets"] = fmean(t["met"] is True for t in s["targets"])
    p95 = s["latency_ms"].get("all", {}).get("p95")
    if p95 is not None:
        comp["latency"] = min(1.0, s["latency_budget_ms"] / p95) if p95 > 0 else 1.0
    return comp


def compute_score(report: dict[str, Any]) -> dict[str, Any]:
    """Score a report dict: weighted mean of the components present, scaled to 0..100."""
    per: dict[str, list[float]] = {k: [] for k in WEIGHTS}
    for s in report["scenarios"].values():
        for k, v in _scenario_components(s).items():
            per[k].append(v)
    comps = {k: fmean(v) for k, v in per.items() if v}
    if not comps:
        return {"version": SCORE_VERSION, "value": None, "components": {}}
    total_w = sum(WEIGHTS[k] for k in comps)
    value = 100 * sum(WEIGHTS[k] * v for k, v in comps.items()) / total_w
    return {"version": SCORE_VERSION, "value": round(value, 2),
            "components": {k: round(v, 6) for k, v in sorted(comps.items())}, "weights": WEIGHTS}
