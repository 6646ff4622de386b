"""Quality side of the gate: a drop beyond the minimal effect that a paired per-query test confirms.

Ranking metrics have per-query figures: a metric regresses when its mean gets worse by
more than `min_effect` (absolute) AND the paired randomisation test, Holm-corrected over
the scenario's metrics, gives p < alpha. Quality is deterministic, so an unchanged backend
shows a difference of exactly 0 (p = 1). Scenario-level figures without per-item data
(check rate, coverage, extra metrics) are deterministic counts: they regress on the
minimal effect alone.
"""
from __future__ import annotations

from typing import Any

from bench.compare.direction import worse_by
from bench.compare.significance import compare_metrics
from bench.gate.finding import Finding, fmt_p


def _kind(worse: float, p: float, min_effect: float, alpha: float) -> str:
    if p < alpha and worse > min_effect:
        return "regression"
    if p < alpha and -worse > min_effect:
        return "improvement"
    return "ok"


def _scenario_figures(s: dict[str, Any]) -> dict[str, float | None]:
    steps = s["steps"]
    out = {"check_rate": s["checks"]["rate"],
           "coverage": 1 - steps["unsupported"] / steps["total"] if steps["total"] else None}
    out.update(s["metrics"])
    return out


def quality_findings(name: str, base: dict[str, Any], cur: dict[str, Any], *, min_effect: float, alpha: float,
                     metrics: list[str] | None = None, seed: int = 0, permutations: int = 10_000) -> list[Finding]:
    """Findings for one scenario's quality; raises QueryMismatch if the queries differ."""
    out = []
    for t in compare_metrics(name, base["per_query"], cur["per_query"], metrics=metrics, seed=seed,
                             permutations=permutations):
        kind = _kind(worse_by(t.metric, t.baseline, t.current), t.p_holm, min_effect, alpha)
        detail = f"{t.baseline:.3f} -> {t.current:.3f} ({t.diff:+.3f}, {fmt_p(t.p_holm)})"
        out.append(Finding(kind, name, t.metric, detail, t.baseline, t.current, t.p_holm))
    b_fig, c_fig = _scenario_figures(base), _scenario_figures(cur)
    for m, b in b_fig.items():
        if metrics is not None and m not in metrics:
            continue
        c = c_fig.get(m)
        if b is None or c is None:
            if (b is None) != (c is None):
                out.append(Finding("note", name, m, f"present in only one run ({b} -> {c}); not gated"))
            continue
        worse = worse_by(m, b, c)
        kind = "regression" if worse > min_effect else "improvement" if -worse > min_effect else "ok"
        out.append(Finding(kind, name, m, f"{b:.3f} -> {c:.3f} ({c - b:+.3f}, deterministic)", b, c))
    return out
