"""Summarise one scenario's replay records and telemetry into report figures."""
from __future__ import annotations

from collections import Counter, defaultdict
from statistics import fmean
from typing import Any

import numpy as np

from bench.metrics import percentiles
from bench.replay.results import ScenarioResult
from bench.report.repetitions import latency_samples
from bench.scenario.model import Header
from bench.steps import STEPS

_STATUSES = ("ok", "failed", "error", "unsupported")


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


def _work(tools: list[Any]) -> dict[str, Any]:
    """How much of the work the backend did, per telemetry op, with the p95 of the operations it did.

    An operation is not done when it was unsupported, raised (other than an expected refusal), or
    was a ranked query answered with nothing; score version 3 gives latency credit only for work done.
    """
    by_op: dict[str, dict[str, Any]] = {}
    for op in sorted({STEPS[s.name].op for s in tools}):
        steps = [s for s in tools if STEPS[s.name].op == op]
        done = [s.latency_ms for s in steps if s.done and s.latency_ms is not None]
        by_op[op] = {"operations": len(steps), "done": len(done),
                     "p95_ms": round(float(np.quantile(done, 0.95)), 4) if done else None}
    not_done = [s for s in tools if not s.done]
    return {"operations": len(tools), "done": len(tools) - len(not_done),
            "not_done": {why: sum(s.undone == why for s in not_done) for why in ("unsupported", "raised", "empty")},
            "by_op": by_op}


def _problems(result: ScenarioResult) -> list[dict[str, Any]]:
    """Failed and erroring steps, then each write the census could not read back (with the write's line)."""
    out = [{"line": s.line, "step": s.name, "status": s.status, "message": s.message}
           for s in result.steps if s.status in ("failed", "error") and s.kind != "harness"]
    out += [{"line": w["line"], "step": w["step"], "status": "failed",
             "message": "census: acknowledged write cannot be read back"} for w in result.lost_writes]
    return out[:50]


def _not_run(result: ScenarioResult) -> list[dict[str, Any]]:
    """Steps whose checks never ran because the backend lacks a capability: {line, step, checks, message}
    (first 50); they count as failed checks in `checks` but are not `problems`."""
    return [{"line": s.line, "step": s.name, "checks": len(s.checks), "message": s.message}
            for s in result.steps if s.status == "unsupported" and s.checks][:50]


def _targets(header: Header, summary: dict[str, Any], result: ScenarioResult) -> list[dict[str, Any]]:
    """Each header target with its value; a target whose needed operations never ran is not met."""
    ran = Counter(s.name for s in result.steps if s.status in ("ok", "failed"))
    out = []
    for t in header.targets:
        value = _lookup(t.metric, summary)
        done = sum(ran[n] for n in t.needs)
        met = None if value is None else t.met(value)
        if t.needs and done == 0:
            met = False
        row = {"metric": t.metric, "op": t.op, "target": t.value, "source": t.source, "value": value, "met": met}
        if t.needs:
            row |= {"needs": list(t.needs), "needs_ran": done}
        out.append(row)
    return out


def relationships(pairs: list[dict[str, str]]) -> dict[str, Any]:
    """The planted relationship pairs as scored: {confusion {truth: {detected: n}}, pairs}; {} without any.

    `detected` "none" is a pair the backend did not link; the confusion says what each planted type was
    taken for (e.g. how many `updates` came back as `relates_to`), which one accuracy figure cannot."""
    if not pairs:
        return {}
    confusion: dict[str, Counter] = defaultdict(Counter)
    for p in pairs:
        confusion[p["truth"]][p["detected"]] += 1
    return {"confusion": {t: dict(sorted(c.items())) for t, c in sorted(confusion.items())}, "pairs": list(pairs)}


def confusion_table(rels: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """(head, rows) of a scenario's `relationships` confusion: a row per planted type, a column per stored type,
    then how many were right; no rows without planted pairs."""
    confusion = rels.get("confusion") or {}
    cols = sorted({d for row in confusion.values() for d in row})
    rows = [[truth, *(str(row.get(c, 0)) for c in cols), f"{row.get(truth, 0)} of {sum(row.values())}"]
            for truth, row in confusion.items()]
    return ["planted / stored", *cols, "right"], rows


def summarise(result: ScenarioResult, header: Header, events: list[dict[str, Any]]) -> dict[str, Any]:
    """The report section of one scenario (plain JSON-ready dict).

    `steps` counts operations (tool steps) only; harness directives are counted apart under
    `directives` and the write census under `census`; its checks join the scenario's checks.
    """
    tools = [s for s in result.steps if s.kind == "tool"]
    status = Counter(s.status for s in tools)
    directives = [s for s in result.steps if s.kind == "directive"]
    checks = [c for s in result.steps for c in s.checks]
    passed = sum(c.passed for c in checks)
    by_cat: dict[str, list[Any]] = defaultdict(list)
    for q in result.queries:
        by_cat[q.category or "all"].append(q)
    summary: dict[str, Any] = {
        "description": header.description,
        "steps": {"total": len(tools), **{k: status.get(k, 0) for k in _STATUSES}},
        "directives": {"total": len(directives), **{k: sum(s.status == k for s in directives) for k in _STATUSES}},
        "census": dict(result.census),
        "quality": {**_mean_metrics(result.queries), "queries": len(result.queries),
                    "unsupported_queries": sum(q.unsupported for q in result.queries)} if result.queries else {},
        "quality_by_category": {c: _mean_metrics(qs) for c, qs in sorted(by_cat.items())} if len(by_cat) > 1 else {},
        "checks": {"passed": passed, "total": len(checks), "rate": round(passed / len(checks), 6) if checks else None},
        "metrics": dict(sorted(result.extra_metrics.items())),
        "latency_ms": _latency(events),
        "work": _work(tools),
        "latency_budget_ms": header.latency_budget_ms,
        "storage_bytes": result.storage_bytes,
        "problems": _problems(result),
        "not_run": _not_run(result),
        "unsupported": dict(Counter(s.message for s in result.steps if s.status == "unsupported")),
        "per_query": [{"id": q.id, "line": q.line, "category": q.category, "unsupported": q.unsupported,
                       **q.metrics, "retrieved": q.retrieved} for q in result.queries],
        "relationships": relationships(result.relationships),
    }
    if result.census.get("verified") or result.census.get("lost"):
        # 1 when every verifiable acknowledged write was read back: a single lost write moves it by 1,
        # beyond any gate's minimal effect (the census counts themselves are under `census`)
        summary["metrics"]["census.intact"] = 0.0 if result.census["lost"] else 1.0
    summary["targets"] = _targets(header, summary, result)
    return summary
