"""Fair comparisons: latency over the steps all backends ran, one test per percentile, unsupported
queries out of the paired tests, Pareto points only for backends that ran a query."""
from statistics import fmean

import numpy as np
import pytest

from bench.compare import TestSettings, build_comparison, significant_losses, to_markdown
from bench.compare.common_latency import common_steps
from bench.compare.pareto import scenario_points
from bench.report import Report

SETTINGS = TestSettings(seed=0, permutations=2000, alpha=0.05)


def section(per_query_values, *, unsupported=(), steps=None):
    """A report section; `steps` maps a step name to its per-step samples (ms)."""
    steps = steps or {}
    per_query = [{"id": f"q{i}", "line": i + 2, "category": None, "unsupported": i in unsupported,
                  "retrieved": [], "ndcg@10": v} for i, v in enumerate(per_query_values)]
    lat = {name: {"p50": float(np.median(v)), "p95": float(np.quantile(v, .95)), "n": len(v)} for name, v in steps.items()}
    pooled = [x for v in steps.values() for x in v]
    lat["all"] = {"p50": float(np.median(pooled)), "p95": float(np.quantile(pooled, .95)), "n": len(pooled)} if pooled else {"n": 0}
    return {"description": "", "steps": {"total": 20, "ok": 20, "failed": 0, "error": 0, "unsupported": 0},
            "quality": {"ndcg@10": fmean(per_query_values)}, "quality_by_category": {},
            "checks": {"passed": 1, "total": 1, "rate": 1.0}, "metrics": {}, "latency_ms": lat,
            "latency_budget_ms": 50.0, "storage_bytes": 1, "targets": [], "problems": [], "unsupported": {},
            "per_query": per_query, "latency_repetitions": [lat],
            "latency_samples_ms": {**steps, "all": pooled}}


def compare(**sections):
    return build_comparison({b: Report(b, [], {"demo": s}, {}) for b, s in sections.items()}, "ref", SETTINGS)


def rows(c, part="latency"):
    return {r["metric"]: r for r in c["scenarios"]["demo"][part]}


FAST = [1.0 + i / 100 for i in range(40)]
SLOW_GRAPH = [5.0 + i / 100 for i in range(40)]


def test_latency_uses_only_step_types_every_backend_ran():
    # `nograph` cannot run graph steps: on all steps its p95 would be ~1.4 ms against the reference's ~5 ms
    c = compare(ref=section([0.5], steps={"memory_search_structured": FAST, "graph_get_node": SLOW_GRAPH,
                                          "advance_clock": [0.01] * 40}),
                nograph=section([0.5], steps={"memory_search_structured": FAST, "advance_clock": [0.01] * 40}))
    lat = rows(c)
    assert "latency.all.p95" not in lat
    p95 = lat["latency.common.p95"]
    assert p95["values"]["ref"] == p95["values"]["nograph"] == pytest.approx(np.quantile(FAST, .95), abs=1e-4)
    assert not p95["vs_reference"]["nograph"]["significant"]
    steps = c["scenarios"]["demo"]["latency_steps"]
    assert steps["common"] == ["memory_search_structured"]      # the directive advance_clock is not a step type
    assert steps["excluded"] == {"graph_get_node": "run 40x by ref, 0x by nograph"}
    assert "`graph_get_node` (run 40x by ref, 0x by nograph)" in to_markdown(c)


def test_a_step_type_run_fewer_times_by_one_backend_is_left_out():
    kept, excluded = common_steps({"ref": section([0.5], steps={"memory_get": FAST}),
                                   "b": section([0.5], steps={"memory_get": FAST[:30]})})
    assert kept == [] and excluded == {"memory_get": "run 40x by ref, 30x by b"}


def test_each_percentile_has_its_own_test_and_direction():
    ref = [2.0 + i / 100 for i in range(100)]                 # 2.00 .. 2.99
    b = [1.0 + i / 1000 for i in range(90)] + [10.0] * 10     # faster median, much slower tail
    c = compare(ref=section([0.5], steps={"memory_search": ref}), b=section([0.5], steps={"memory_search": b}))
    lat = rows(c)
    p50, p95 = lat["latency.common.p50"]["vs_reference"]["b"], lat["latency.common.p95"]["vs_reference"]["b"]
    assert p50["diff"] < 0 and p50["significant"]
    assert p95["diff"] > 0 and p95["significant"]
    assert p50["p_quantile"] != p95["p_quantile"]
    # the query-only group holds memory_search too (its telemetry op is `query`)
    assert "latency.common_queries.p50" in lat


def test_unsupported_queries_are_left_out_of_the_paired_test_and_shown_as_coverage():
    ref = [0.9, 0.8, 1.0, 0.7, 0.6, 0.9, 0.5, 0.8, 0.9, 0.7, 0.6, 1.0]
    # `partial` answers the first 4 queries exactly as the reference and does not support the other 8
    partial = ref[:4] + [0.0] * 8
    c = compare(ref=section(ref), partial=section(partial, unsupported=range(4, 12)))
    q = rows(c, "quality")
    nd = q["ndcg@10"]
    assert nd["vs_reference"]["partial"]["n"] == 4
    assert nd["vs_reference"]["partial"]["diff"] == 0 and not nd["vs_reference"]["partial"]["significant"]
    assert nd["values"]["partial"] == pytest.approx(fmean(ref[:4]))
    assert q["queries_ran"]["values"] == {"ref": 1.0, "partial": pytest.approx(4 / 12, abs=1e-6)}
    assert significant_losses(c) == {}


def test_a_real_loss_on_the_queries_both_ran_is_still_significant():
    ref = [0.9, 0.8, 1.0, 0.7, 0.6, 0.9, 0.5, 0.8, 0.9, 0.7, 0.6, 1.0]
    worse = [x - 0.3 for x in ref[:10]] + [0.0, 0.0]
    c = compare(ref=section(ref), worse=section(worse, unsupported=(10, 11)))
    assert rows(c, "quality")["ndcg@10"]["vs_reference"]["worse"]["n"] == 10
    assert significant_losses(c) == {"worse": ["demo ndcg@10"]}


def test_pareto_leaves_out_a_backend_with_no_supported_query():
    steps = {"memory_search_structured": FAST}
    c = compare(ref=section([0.9, 0.8], steps=steps), none=section([0.0, 0.0], unsupported=(0, 1), steps=steps),
                half=section([0.7, 0.0], unsupported=(1,), steps=steps))
    nd = rows(c, "quality")["ndcg@10"]
    assert nd["values"]["none"] is None and nd["vs_reference"]["none"]["n"] == 0
    pts = scenario_points(c["scenarios"]["demo"], c["backends"])
    assert set(pts) == {"ref", "half"}
    assert pts["half"][1] == pytest.approx(0.7)
