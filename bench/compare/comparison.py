"""Build the side-by-side comparison of several backends' reports over the same scenarios.

For each scenario: every ranking metric with its direction, each backend's mean over the
queries it ran, and a paired per-query test of each backend against the reference on the
queries both ran (randomisation test with a fixed seed and paired t, Holm-corrected across
the metrics), with the share of queries each ran (`queries_ran`); the same per query
category; check rate, coverage, the scenario's extra metrics, storage bytes, and latency
percentiles over the step types every backend ran, each with its own quantile test
(`common_latency`). The result is a plain
JSON-ready dict (`comparison.json`, schema in reports/README.md).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from statistics import fmean
from typing import Any

from bench.compare.common_latency import latency_rows
from bench.compare.direction import direction
from bench.compare.pairing import align, metric_names
from bench.compare.significance import compare_metrics
from bench.report import Report

COMPARISON_SCHEMA_VERSION = 1
LATENCY_GROUPS = ("all", "queries")


@dataclass(frozen=True)
class TestSettings:
    """How differences are tested: seed and size of the randomisation test, and alpha."""

    __test__ = False

    seed: int = 0
    permutations: int = 10_000
    alpha: float = 0.05


def _ran(qs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [q for q in qs if not q.get("unsupported")]


def _mean(qs: list[dict[str, Any]], metric: str) -> float | None:
    vals = [q[metric] for q in qs if metric in q]
    return fmean(vals) if vals else None


def _coverage_row(queries: dict[str, list[dict[str, Any]]], ref: str) -> dict[str, Any]:
    values = {b: len(_ran(qs)) / len(qs) if qs else None for b, qs in queries.items()}
    return _plain_row("queries_ran", values, ref)


def _quality_rows(name: str, queries: dict[str, list[dict[str, Any]]], ref: str,
                  ts: TestSettings) -> list[dict[str, Any]]:
    """Means over the queries each backend ran; tests on the queries both ran; `queries_ran` as coverage."""
    rows = {m: {"metric": m, "direction": direction(m), "values": {b: _mean(_ran(qs), m) for b, qs in queries.items()},
                "vs_reference": {}} for m in metric_names(queries[ref])}
    for b, qs in queries.items():
        if b == ref:
            continue
        both = [(x, y) for x, y in align(name, queries[ref], qs) if not x.get("unsupported") and not y.get("unsupported")]
        if not both:
            for row in rows.values():
                row["vs_reference"][b] = {"n": 0, "diff": None, "significant": False,
                                          "note": "no query run by both backends"}
            continue
        for t in compare_metrics(name, [x for x, _ in both], [y for _, y in both], seed=ts.seed,
                                 permutations=ts.permutations):
            rows[t.metric]["vs_reference"][b] = {**t.to_dict(), "significant": t.p_holm < ts.alpha}
    return [_coverage_row(queries, ref), *rows.values()]


def _by_category(name: str, queries: dict[str, list[dict[str, Any]]], ref: str,
                 ts: TestSettings) -> dict[str, list[dict[str, Any]]]:
    cats = sorted({q["category"] or "all" for q in queries[ref]})
    if len(cats) < 2:
        return {}
    out = {}
    for c in cats:
        sub = {b: [q for q in qs if (q["category"] or "all") == c] for b, qs in queries.items()}
        out[c] = _quality_rows(f"{name} (category {c})", sub, ref, ts)
    return out


def _plain_row(metric: str, values: dict[str, Any], ref: str) -> dict[str, Any]:
    vs = {b: {"diff": None if v is None or values[ref] is None else v - values[ref]}
          for b, v in values.items() if b != ref}
    return {"metric": metric, "direction": direction(metric), "values": values, "vs_reference": vs}


def _scenario_rows(s: dict[str, dict[str, Any]], ref: str) -> list[dict[str, Any]]:
    rows = [_plain_row("check_rate", {b: x["checks"]["rate"] for b, x in s.items()}, ref)]
    rows.append(_plain_row("coverage", {b: 1 - x["steps"]["unsupported"] / x["steps"]["total"]
                                        if x["steps"]["total"] else None for b, x in s.items()}, ref))
    extra = sorted({m for x in s.values() for m in x["metrics"]})
    rows += [_plain_row(m, {b: x["metrics"].get(m) for b, x in s.items()}, ref) for m in extra]
    rows.append(_plain_row("storage_bytes", {b: x["storage_bytes"] for b, x in s.items()}, ref))
    return rows


def _check_suites(reports: dict[str, Report]) -> list[str]:
    suites = {b: list(r.scenarios) for b, r in reports.items()}
    first = next(iter(suites.values()))
    for b, names in suites.items():
        if sorted(names) != sorted(first):
            raise ValueError(f"backend {b}: its report covers scenarios {names}, not {first}")
    return first


def build_comparison(reports: dict[str, Report], reference: str, settings: TestSettings = TestSettings()
                     ) -> dict[str, Any]:
    """The comparison dict of `reports` (backend spec -> Report), each tested against `reference`."""
    if reference not in reports:
        raise ValueError(f"reference backend {reference!r} is not among {list(reports)}")
    order = [reference] + [b for b in reports if b != reference]
    suite = _check_suites(reports)
    scenarios: dict[str, Any] = {}
    for name in suite:
        s = {b: reports[b].scenarios[name] for b in order}
        queries = {b: x["per_query"] for b, x in s.items()}
        lat_rows, lat_steps = latency_rows(s, reference, settings.alpha)
        scenarios[name] = {
            "queries": len(queries[reference]),
            "quality": _quality_rows(name, queries, reference, settings) if queries[reference] else [],
            "quality_by_category": _by_category(name, queries, reference, settings) if queries[reference] else {},
            "scenario": _scenario_rows(s, reference),
            "latency": lat_rows,
            "latency_steps": lat_steps,
            "latency_ms": {b: {g: x["latency_ms"].get(g, {}) for g in LATENCY_GROUPS} for b, x in s.items()},
            "repetitions": {b: len(x.get("latency_repetitions", [None])) for b, x in s.items()},
        }
    return {"schema": "codemem-bench/comparison", "schema_version": COMPARISON_SCHEMA_VERSION,
            "reference": reference, "backends": order, "suite": suite,
            "test": {"quality": "paired randomisation (sign flip, two-sided) and paired t on the per-query "
                                "figures of the queries both backends ran (unsupported ones are left out and "
                                "shown as queries_ran); Holm over the metrics of one scenario or category",
                     "latency": "per percentile, a two-sided quantile test (Fisher's exact test on a split at "
                                "the pooled percentile) on the per-step samples of the tool step types every "
                                "backend ran; Holm over groups, percentiles and backends",
                     "seed": settings.seed, "permutations": settings.permutations, "alpha": settings.alpha},
            "retrieval": {b: reports[b].score.get("retrieval") for b in order},
            "score": {b: reports[b].score["value"] for b in order},
            "environment": reports[reference].environment,
            "scenarios": scenarios}


def significant_losses(comparison: dict[str, Any]) -> dict[str, list[str]]:
    """For each non-reference backend, `scenario metric` where it is significantly worse than the reference."""
    out: dict[str, list[str]] = defaultdict(list)
    for name, sc in comparison["scenarios"].items():
        for row in sc["quality"]:
            for b, t in row["vs_reference"].items():
                if t.get("diff") is None:   # the backend ran none of the queries: shown as coverage
                    continue
                worse = t["diff"] < 0 if row["direction"] == "higher" else t["diff"] > 0
                if t.get("significant") and worse:
                    out[b].append(f"{name} {row['metric']}")
    return dict(out)
