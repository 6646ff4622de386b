"""Summarise one scenario's replay records and telemetry into report figures."""
from __future__ import annotations

from collections import Counter, defaultdict
from statistics import fmean
from typing import Any

from bench.metrics import percentiles
from bench.replay.results import ScenarioResult
from bench.report.repetitions import latency_samples
from bench.scenario.model import Header


def _mean_metrics(queries: list[Any]) -> dict[str, float]:
    """Mean of each metric over the queries that report it (queries may use different cut-offs k)."""
    names = list(dict.fromkeys(n for q in queries for n in q.metrics))
    return {n: round(fmean(q.metrics[n] for q in queries if n in q.metrics), 6) for n in names}


def _latency(events: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    groups = latency_samples(events)
    out = {name: percentiles(v) for name, v in sorted(groups.items()) if name not in ("all", "queries")}
    out["all"] = percentiles(groups.get("all", []))
    out["queries"] = percentiles(groups.get("queries", []))
    return out


def _lookup(metric: str, summary: dict[str, Any]) -> float | None:
    """Find a target's metric in a summary: quality, extra metrics, check rate or `latency.<p>`."""
    if metric in summary["quality"]:
        return summary["quality"][metric]
    if metric in summary["metrics"]:
        return summary["metrics"][metric]
    if metric == "check_rate":
        return summary["checks"]["rate"]
    if metric.startswith("latency."):  # latency.queries.p95
        _, group, p = metric.split(".", 2)
        return summary["latency_ms"].get(group, {}).get(p)
    if metric == "storage_bytes":
        return summary["storage_bytes"]
    return None


def summarise(result: ScenarioResult, header: Header, events: list[dict[str, Any]]) -> dict[str, Any]:
    """The report section of one scenario (plain JSON-ready dict)."""
    status = Counter(s.status for s in result.steps)
    checks = [c for s in result.steps for c in s.checks]
    passed = sum(c.passed for c in checks)
    by_cat: dict[str, list[Any]] = defaultdict(list)
    for q in result.queries:
        by_cat[q.category or "all"].append(q)
    summary: dict[str, Any] = {
        "description": header.description,
        "steps": {"total": len(result.steps), **{k: status.get(k, 0) for k in ("ok", "failed", "error", "unsupported")}},
        "quality": {**_mean_metrics(result.queries), "queries": len(result.queries),
                    "unsupported_queries": sum(q.unsupported for q in result.queries)} if result.queries else {},
        "quality_by_category": {c: _mean_metrics(qs) for c, qs in sorted(by_cat.items())} if len(by_cat) > 1 else {},
        "checks": {"passed": passed, "total": len(checks), "rate": round(passed / len(checks), 6) if checks else None},
        "metrics": dict(sorted(result.extra_metrics.items())),
        "latency_ms": _latency(events),
        "latency_budget_ms": header.latency_budget_ms,
        "storage_bytes": result.storage_bytes,
        "problems": [{"line": s.line, "step": s.name, "status": s.status, "message": s.message}
                     for s in result.steps if s.status in ("failed", "error")][:50],
        "unsupported": dict(Counter(s.message for s in result.steps if s.status == "unsupported")),
        "per_query": [{"id": q.id, "line": q.line, "category": q.category, "unsupported": q.unsupported,
                       **q.metrics, "retrieved": q.retrieved} for q in result.queries],
    }
    summary["targets"] = []
    for t in header.targets:
        value = _lookup(t.metric, summary)
        summary["targets"].append({"metric": t.metric, "op": t.op, "target": t.value, "source": t.source,
                                   "value": value, "met": None if value is None else t.met(value)})
    return summary
