"""Latency side of the gate: medians over repetitions, two thresholds, and a rank test.

A `group.stat` regresses when the median over the report's repetitions exceeds the
median over the baseline's by more than the spec's relative AND absolute thresholds,
AND a one-sided Mann-Whitney U test says the group's per-step samples (the bounded
sample kept in each report) are larger now, Holm-corrected over the groups gated in the
scenario, at p < alpha. Without samples on either side the figure is reported, not gated.
"""
from __future__ import annotations

from statistics import median
from typing import Any

from bench.gate.finding import Finding, fmt_p
from bench.gate.latency_spec import LatencySpec
from bench.stats import holm, mann_whitney


def repetitions(s: dict[str, Any]) -> list[dict[str, Any]]:
    """Each repetition's latency figures (a report written before repetitions has one)."""
    return s.get("latency_repetitions") or [s["latency_ms"]]


def _median(s: dict[str, Any], group: str, stat: str) -> float | None:
    values = [r.get(group, {}).get(stat) for r in repetitions(s)]
    return median(values) if values and all(v is not None for v in values) else None


def _rank_tests(base: dict[str, Any], cur: dict[str, Any], groups: list[str]) -> dict[str, float]:
    raw = {}
    for g in groups:
        a = base.get("latency_samples_ms", {}).get(g)
        b = cur.get("latency_samples_ms", {}).get(g)
        if a and b:
            raw[g] = mann_whitney(a, b, alternative="greater").p_value
    return dict(zip(raw, holm(list(raw.values()))))


def latency_findings(name: str, base: dict[str, Any], cur: dict[str, Any], specs: tuple[LatencySpec, ...],
                     alpha: float) -> list[Finding]:
    """Findings for one scenario's latency under `specs`."""
    p_by_group = _rank_tests(base, cur, list(dict.fromkeys(s.group for s in specs)))
    nb, nc = len(repetitions(base)), len(repetitions(cur))
    out = []
    for spec in specs:
        b, c = _median(base, spec.group, spec.stat), _median(cur, spec.group, spec.stat)
        if b is None or c is None:
            out.append(Finding("note", name, spec.metric, "no such latency figure in "
                               f"{'the baseline' if b is None else 'the report'}; not gated"))
            continue
        inc = c - b
        rel = inc / b if b > 0 else (float("inf") if inc > 0 else 0.0)
        p = p_by_group.get(spec.group)
        detail = (f"{b:.3f} ms -> {c:.3f} ms ({inc:+.3f} ms, {rel:+.0%}, {fmt_p(p)}; "
                  f"medians of {nb} vs {nc} repetitions; threshold {spec})")
        exceeded = rel > spec.rel and inc > spec.abs_ms
        if p is None:
            kind, detail = "note", detail + "; no latency samples to rank-test, not gated"
        else:
            kind = "regression" if exceeded and p < alpha else "ok"
        out.append(Finding(kind, name, spec.metric, detail, b, c, p))
    return out
