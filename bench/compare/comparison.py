"""Build the side-by-side comparison of several backends' reports over the same scenarios.

For each scenario: every ranking metric with its direction, each backend's mean, and a
paired per-query test of each backend against the reference (randomisation test with a
fixed seed and paired t, Holm-corrected across the metrics); the same per query category;
check rate, coverage, the scenario's extra metrics, latency percentiles (with a
Mann-Whitney test on the per-step samples) and storage bytes. The result is a plain
JSON-ready dict (`comparison.json`, schema in reports/README.md).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from statistics import fmean
from typing import Any

from bench.compare.direction import direction
from bench.compare.pairing import metric_names
from bench.compare.significance import compare_metrics
from bench.report import Report
from bench.stats import holm, mann_whitney

COMPARISON_SCHEMA_VERSION = 1
LATENCY_GROUPS = ("all", "queries")
LATENCY_STATS = ("p50", "p95", "p99")


@dataclass(frozen=True)
class TestSettings:
    """How differences are tested: seed and size of the randomisation test, and alpha."""

    __test__ = False

    seed: int = 0
    permutations: int = 10_000
    alpha: float = 0.05


def _quality_rows(name: str, queries: dict[str, list[dict[str, Any]]], ref: str,
                  ts: TestSettings) -> list[dict[str, Any]]:
    rows: dict[str, dict[str, Any]] = {}
    for b, qs in queries.items():
        if b == ref:
            continue
        for t in compare_metrics(name, queries[ref], qs, seed=ts.seed, permutations=ts.permutations):
            row = rows.setdefault(t.metric, {"metric": t.metric, "direction": t.direction,
                                             "values": {ref: round(t.baseline, 6)}, "vs_reference": {}})
            row["values"][b] = round(t.current, 6)
            row["vs_reference"][b] = {**t.to_dict(), "significant": t.p_holm < ts.alpha}
    if len(queries) == 1:  # only the reference: means without tests
        for m in metric_names(queries[ref]):
            vals = [q[m] for q in queries[ref] if m in q]
            rows[m] = {"metric": m, "direction": direction(m), "values": {ref: round(fmean(vals), 6)},
                       "vs_reference": {}}
    return list(rows.values())


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
    vs = {b: {"diff": None if v is None or values[ref] is None else round(v - values[ref], 6)}
          for b, v in values.items() if b != ref}
    return {"metric": metric, "direction": direction(metric), "values": values, "vs_reference": vs}


def _scenario_rows(s: dict[str, dict[str, Any]], ref: str) -> list[dict[str, Any]]:
    rows = [_plain_row("check_rate", {b: x["checks"]["rate"] for b, x in s.items()}, ref)]
    rows.append(_plain_row("coverage", {b: round(1 - x["steps"]["unsupported"] / x["steps"]["total"], 6)
                                        if x["steps"]["total"] else None for b, x in s.items()}, ref))
    extra = sorted({m for x in s.values() for m in x["metrics"]})
    rows += [_plain_row(m, {b: x["metrics"].get(m) for b, x in s.items()}, ref) for m in extra]
    rows.append(_plain_row("storage_bytes", {b: x["storage_bytes"] for b, x in s.items()}, ref))
    return rows


def _latency_rows(s: dict[str, dict[str, Any]], ref: str, alpha: float) -> list[dict[str, Any]]:
    groups = [g for g in LATENCY_GROUPS if s[ref]["latency_ms"].get(g, {}).get("n")]
    tests: dict[tuple[str, str], float] = {}
    for g in groups:
        for b, x in s.items():
            if b != ref:
                a, c = s[ref].get("latency_samples_ms", {}).get(g, []), x.get("latency_samples_ms", {}).get(g, [])
                if a and c:
                    tests[(g, b)] = mann_whitney(a, c, alternative="two-sided").p_value
    adjusted = dict(zip(tests, holm(list(tests.values()))))
    rows = []
    for g in groups:
        for stat in LATENCY_STATS:
            row = _plain_row(f"latency.{g}.{stat}", {b: x["latency_ms"].get(g, {}).get(stat) for b, x in s.items()}, ref)
            for b, vs in row["vs_reference"].items():
                if (g, b) in tests:
                    vs.update(p_mann_whitney=round(tests[(g, b)], 6), p_holm=round(adjusted[(g, b)], 6),
                              significant=adjusted[(g, b)] < alpha)
            rows.append(row)
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
        scenarios[name] = {
            "queries": len(queries[reference]),
            "quality": _quality_rows(name, queries, reference, settings) if queries[reference] else [],
            "quality_by_category": _by_category(name, queries, reference, settings) if queries[reference] else {},
            "scenario": _scenario_rows(s, reference),
            "latency": _latency_rows(s, reference, settings.alpha),
            "latency_ms": {b: {g: x["latency_ms"].get(g, {}) for g in LATENCY_GROUPS} for b, x in s.items()},
            "repetitions": {b: len(x.get("latency_repetitions", [None])) for b, x in s.items()},
        }
    return {"schema": "codemem-bench/comparison", "schema_version": COMPARISON_SCHEMA_VERSION,
            "reference": reference, "backends": order, "suite": suite,
            "test": {"quality": "paired randomisation (sign flip, two-sided) and paired t on per-query "
                                "figures; Holm over the metrics of one scenario or category",
                     "latency": "Mann-Whitney U (two-sided) on per-step samples; Holm over groups and backends",
                     "seed": settings.seed, "permutations": settings.permutations, "alpha": settings.alpha},
            "score": {b: reports[b].score["value"] for b in order},
            "environment": reports[reference].environment,
            "scenarios": scenarios}


def significant_losses(comparison: dict[str, Any]) -> dict[str, list[str]]:
    """For each non-reference backend, `scenario metric` where it is significantly worse than the reference."""
    out: dict[str, list[str]] = defaultdict(list)
    for name, sc in comparison["scenarios"].items():
        for row in sc["quality"]:
            for b, t in row["vs_reference"].items():
                worse = t["diff"] < 0 if row["direction"] == "higher" else t["diff"] > 0
                if t.get("significant") and worse:
                    out[b].append(f"{name} {row['metric']}")
    return dict(out)
