"""Combine the repetitions of a run: quality from the first, latency as medians over all.

Quality is deterministic, so every repetition must give the same per-query figures,
checks and step outcomes; a difference is a harness or backend bug and raises
`RepetitionMismatch`. Latency is not: the scenario's `latency_ms` becomes the median over
repetitions of each figure, `latency_repetitions` keeps each repetition's own figures,
and `latency_samples_ms` keeps a bounded, evenly spaced sample of the per-step timings
of all repetitions (for the gate's rank test). Fields documented in reports/README.md.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from statistics import median
from typing import Any

import numpy as np

from bench.steps import STEPS

# per group, enough for a rank test to see a shift of a few percent, small enough for git
SAMPLE_CAP = 500
_DETERMINISTIC = ("per_query", "checks", "metrics", "steps", "quality", "quality_by_category", "relationships")
_STATS = ("p50", "p95", "p99", "mean")


class RepetitionMismatch(ValueError):
    """Two repetitions of one run disagree on a figure that must be deterministic."""


@dataclass
class Repetition:
    """One pass over the suite: per-scenario summaries and raw per-step timings."""

    capabilities: list[str]
    summaries: dict[str, dict[str, Any]]
    samples: dict[str, dict[str, list[float]]] = field(default_factory=dict)  # scenario -> group -> ms
    deterministic: bool = False   # what the backend declares (`Backend.deterministic`)


def determinism(reps: list[Repetition]) -> dict[str, Any]:
    """The report's `determinism`: the backend's declaration and how many repetitions agreed on quality.

    Call after `combine`, which raises if any repetition disagreed.
    """
    return {"declared": bool(reps and reps[0].deterministic), "repetitions": len(reps)}


def latency_samples(events: list[dict[str, Any]]) -> dict[str, list[float]]:
    """Per-step timings of the harness events: by step name, `all`, and `queries`.

    `queries` holds the tool steps whose telemetry op is `query` (searches). Harness
    directives (advance_clock, session, branch, commit, ...) are not operations and are
    left out entirely. Unsupported steps have no timing.
    """
    out: dict[str, list[float]] = defaultdict(list)
    for e in events:
        if e.get("latency_ms") is None or e["extra"].get("status") == "unsupported":
            continue
        step = e["extra"]["step"]
        spec = STEPS.get(step)
        if spec is not None and spec.kind == "directive":
            continue
        out[step].append(e["latency_ms"])
        out["all"].append(e["latency_ms"])
        if e["op"] == "query":
            out["queries"].append(e["latency_ms"])
    return dict(out)


def bounded(samples: list[float], cap: int = SAMPLE_CAP) -> list[float]:
    """At most `cap` samples at evenly spaced positions (deterministic), rounded to 0.1 µs."""
    if len(samples) > cap:
        idx = np.unique(np.linspace(0, len(samples) - 1, cap).round().astype(int))
        samples = [samples[i] for i in idx]
    return [round(float(s), 4) for s in samples]


def _median_latency(per_rep: list[dict[str, dict[str, float]]]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for group, first in per_rep[0].items():
        figures = [r.get(group, {}) for r in per_rep]
        merged = {s: round(median(f[s] for f in figures), 4) for s in _STATS if all(s in f for f in figures)}
        out[group] = {**merged, "n": first.get("n", 0)}
    return out


def _median_work(name: str, per_rep: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The work counts (deterministic: checked) with each op's p95 the median over repetitions."""
    first = per_rep[0]
    if first is None:
        return None
    counts = [{k: v for k, v in w.items() if k != "by_op"} | {op: (b["operations"], b["done"])
              for op, b in w["by_op"].items()} for w in per_rep]
    if any(c != counts[0] for c in counts[1:]):
        raise RepetitionMismatch(f"scenario {name}: repetitions differ in the work done ('work'); "
                                 "quality must be deterministic")
    by_op = {op: {**b, "p95_ms": None if b["p95_ms"] is None else
                  round(median(w["by_op"][op]["p95_ms"] for w in per_rep), 4)} for op, b in first["by_op"].items()}
    return {**first, "by_op": by_op}


def _check_agreement(name: str, first: dict[str, Any], other: dict[str, Any], index: int) -> None:
    for key in _DETERMINISTIC:
        if first.get(key) != other.get(key):
            raise RepetitionMismatch(
                f"scenario {name}: repetition {index + 1} differs from repetition 1 in {key!r}; "
                "quality must be deterministic (check the backend for wall-clock time or randomness)")


def combine(reps: list[Repetition]) -> tuple[list[str], dict[str, dict[str, Any]]]:
    """Capabilities and per-scenario summaries of several repetitions of the same suite."""
    if not reps:
        raise ValueError("no repetitions to combine")
    first = reps[0]
    summaries = {}
    for name, summary in first.summaries.items():
        for i, rep in enumerate(reps[1:], start=1):
            _check_agreement(name, summary, rep.summaries[name], i)
        per_rep = [rep.summaries[name]["latency_ms"] for rep in reps]
        pooled: dict[str, list[float]] = defaultdict(list)
        for rep in reps:
            for group, values in rep.samples.get(name, {}).items():
                pooled[group].extend(values)
        work = _median_work(name, [rep.summaries[name].get("work") for rep in reps])
        summaries[name] = {**summary, **({"work": work} if work else {}),
                           "latency_ms": _median_latency(per_rep), "latency_repetitions": per_rep,
                           "latency_samples_ms": {g: bounded(v) for g, v in sorted(pooled.items())}}
    return first.capabilities, summaries
