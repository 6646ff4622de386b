"""The codemem-bench score: one figure per backend, recomputable from a report alone.

See SCORING.md at the repository root for the formula and its rationale. A report made before
score version 3 (no `work` section) is scored with version 2's latency rule and says version 2.
"""
from __future__ import annotations

from statistics import fmean
from typing import Any

SCORE_VERSION = 3
WEIGHTS = {"quality": 0.40, "correctness": 0.20, "targets": 0.20, "coverage": 0.10, "latency": 0.10}


def speed(budget_ms: float, p95_ms: float | None) -> float:
    """min(1, budget / p95): beating the budget earns nothing more."""
    if p95_ms is None:
        return 0.0
    return min(1.0, budget_ms / p95_ms) if p95_ms > 0 else 1.0


def latency_credit(s: dict[str, Any]) -> float | None:
    """Version 3: per telemetry op, the share of all operations done of that op times its speed.

    Σ_op done_op / operations × min(1, budget / p95 of the op's done operations): an operation the
    backend did not do (unsupported, raised, a ranked query answered with nothing) earns nothing, as
    if over budget, and a slow answer never earns less than no answer. None without operations.
    """
    work = s["work"]
    if not work["operations"]:
        return None
    return sum(b["done"] * speed(s["latency_budget_ms"], b["p95_ms"])
               for b in work["by_op"].values() if b["done"]) / work["operations"]


def _latency_v2(s: dict[str, Any]) -> float | None:
    p95 = s["latency_ms"].get("all", {}).get("p95")
    return None if p95 is None else speed(s["latency_budget_ms"], p95)


def _scenario_components(s: dict[str, Any], version: int) -> dict[str, float]:
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
    latency = latency_credit(s) if version >= 3 else _latency_v2(s)
    if latency is not None:
        comp["latency"] = latency
    return comp


def compute_score(report: dict[str, Any]) -> dict[str, Any]:
    """Score a report dict: weighted mean of the components present, scaled to 0..100.

    `retrieval` is the quality component alone on the same 0..100 scale (mean nDCG@10 over the
    ranked queries, per scenario): how well the backend searches, apart from everything else.
    """
    scenarios = report["scenarios"].values()
    version = SCORE_VERSION if all("work" in s for s in scenarios) else 2
    per: dict[str, list[float]] = {k: [] for k in WEIGHTS}
    for s in scenarios:
        for k, v in _scenario_components(s, version).items():
            per[k].append(v)
    comps = {k: fmean(v) for k, v in per.items() if v}
    if not comps:
        return {"version": version, "value": None, "retrieval": None, "components": {}}
    total_w = sum(WEIGHTS[k] for k in comps)
    value = 100 * sum(WEIGHTS[k] * v for k, v in comps.items()) / total_w
    retrieval = round(100 * comps["quality"], 2) if "quality" in comps else None
    return {"version": version, "value": round(value, 2), "retrieval": retrieval,
            "components": {k: round(v, 6) for k, v in sorted(comps.items())}, "weights": WEIGHTS}
