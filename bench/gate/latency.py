"""Latency side of the gate: one quantile per step type, two thresholds, and a test of that quantile.

For each spec and each latency group it names (with group `steps`: every tool step type
of every scenario, directives excluded, each on its own), the quantile of the per-step samples of all
repetitions (`latency_samples_ms`) is compared (groups `reads` and `writes` hold the
tool step types of those telemetry ops). A group regresses when the report's
quantile exceeds the baseline's by more than the spec's relative AND absolute
thresholds, AND a one-sided quantile test (Fisher's exact test on a split at the pooled
quantile) says the report is slower there, Holm-corrected over every group gated in the
report, at p < alpha. Groups with fewer than `MIN_SAMPLES` samples on a side are not
gated (one note names them); without samples at all the figure is a note.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from bench.gate.finding import Finding, fmt_p
from bench.gate.latency_spec import STEP_GROUPS, LatencySpec
from bench.stats import holm, quantile_test
from bench.steps import STEPS

MIN_SAMPLES = 20


def repetitions(s: dict[str, Any]) -> list[dict[str, Any]]:
    """Each repetition's latency figures (a report written before repetitions has one)."""
    return s.get("latency_repetitions") or [s["latency_ms"]]


def _groups(spec: LatencySpec, base: dict[str, list[float]], cur: dict[str, list[float]]) -> list[str]:
    if spec.group not in STEP_GROUPS:
        return [spec.group]
    ops = STEP_GROUPS[spec.group]
    return sorted(g for g in base.keys() & cur.keys()
                  if g in STEPS and STEPS[g].kind == "tool" and (ops is None or STEPS[g].op in ops))


@dataclass
class _Test:
    scenario: str
    spec: LatencySpec
    group: str
    base: float
    cur: float
    p: float


def _metric(spec: LatencySpec, group: str) -> str:
    return f"latency.{group}.{spec.stat}"


def latency_findings(pairs: dict[str, tuple[dict[str, Any], dict[str, Any]]], specs: tuple[LatencySpec, ...],
                     alpha: float) -> list[Finding]:
    """Findings for the latency of every scenario in `pairs` (name -> (baseline, report) sections)."""
    notes: list[Finding] = []
    tests: list[_Test] = []
    small: list[str] = []
    for name, (base, cur) in pairs.items():
        bs, cs = base.get("latency_samples_ms") or {}, cur.get("latency_samples_ms") or {}
        for spec in specs:
            if not bs or not cs:
                notes.append(Finding("note", name, spec.metric, "no latency samples in "
                                     f"{'the baseline' if not bs else 'the report'}; not gated"))
                continue
            for g in _groups(spec, bs, cs):
                a, b = bs.get(g), cs.get(g)
                if not a or not b:
                    notes.append(Finding("note", name, _metric(spec, g), "no such latency group in "
                                         f"{'the baseline' if not a else 'the report'}; not gated"))
                elif min(len(a), len(b)) < MIN_SAMPLES:
                    small.append(f"{name}/{g}")
                else:
                    tests.append(_Test(name, spec, g, float(np.quantile(a, spec.q)), float(np.quantile(b, spec.q)),
                                       quantile_test(a, b, spec.q, alternative="greater").p_value))
    if small:
        notes.append(Finding("note", "*", "latency", f"{len(small)} group(s) with fewer than {MIN_SAMPLES} "
                             f"samples on a side not gated: {', '.join(small[:6])}{' ...' if len(small) > 6 else ''}"))
    adjusted = holm([t.p for t in tests])
    out = []
    for t, p in zip(tests, adjusted):
        inc = t.cur - t.base
        rel = inc / t.base if t.base > 0 else (float("inf") if inc > 0 else 0.0)
        kind = "regression" if rel > t.spec.rel and inc > t.spec.abs_ms and p < alpha else "ok"
        detail = f"{t.base:.3f} ms -> {t.cur:.3f} ms ({inc:+.3f} ms, {rel:+.0%}, {fmt_p(p)}; threshold {t.spec})"
        out.append(Finding(kind, t.scenario, _metric(t.spec, t.group), detail, t.base, t.cur, p))
    return notes + out
