"""The comparison's figures and tests on hand-built reports, checked against hand computation."""
import itertools
from statistics import fmean

import pytest

from bench.compare import (QueryMismatch, TestSettings, align, build_comparison, direction, significant_losses,
                           to_markdown, to_table)
from bench.compare.pareto import pareto_front
from bench.report import Report


def section(values, categories=None, storage=1000, p50=(1.0,), samples=None, extra=None):
    n = len(next(iter(values.values())))
    per_query = [{"id": f"q{i}", "line": i + 2, "category": categories[i] if categories else None,
                  "unsupported": False, "retrieved": [], **{m: v[i] for m, v in values.items()}} for i in range(n)]
    reps = [{"all": {"p50": x, "p95": 2 * x, "p99": 3 * x, "mean": x, "n": 10},
             "queries": {"p50": x, "p95": 2 * x, "p99": 3 * x, "mean": x, "n": 5}} for x in p50]
    return {"description": "", "steps": {"total": 20, "ok": 20, "failed": 0, "error": 0, "unsupported": 0},
            "quality": {**{m: round(fmean(v), 6) for m, v in values.items()}, "queries": n, "unsupported_queries": 0},
            "quality_by_category": {}, "checks": {"passed": 3, "total": 3, "rate": 1.0},
            "metrics": extra or {}, "latency_ms": reps[0], "latency_budget_ms": 50.0, "storage_bytes": storage,
            "targets": [], "problems": [], "unsupported": {}, "per_query": per_query,
            "latency_repetitions": reps, "latency_samples_ms": samples or {}}


def report(backend, **scenarios):
    return Report(backend, [], scenarios, {})


def brute_p(d):
    obs = abs(sum(d))
    hits = sum(abs(sum(s * x for s, x in zip(signs, d))) >= obs - 1e-9
               for signs in itertools.product((1, -1), repeat=len(d)))
    return hits / 2 ** len(d)


REF = {"ndcg@10": [0.9, 0.8, 1.0, 0.7, 0.6, 0.9, 0.5, 0.8], "recall@10": [1.0] * 8}
# B loses 0.2 nDCG on every query (p = 2/256) and recall on 3 queries (p = 2/8)
B = {"ndcg@10": [x - 0.2 for x in REF["ndcg@10"]], "recall@10": [0.5, 0.5, 0.5] + [1.0] * 5}
CATS = ["a", "a", "a", "a", "b", "b", "b", "b"]


@pytest.fixture
def comparison():
    return build_comparison({"ref": report("ref", demo=section(REF, CATS, storage=1000, extra={"duplicate_rate": 0.1})),
                             "b": report("b", demo=section(B, CATS, storage=1500, extra={"duplicate_rate": 0.2}))},
                            "ref", TestSettings(seed=0, permutations=2000, alpha=0.05))


def test_quality_rows_hold_means_diffs_and_holm_corrected_p(comparison):
    rows = {r["metric"]: r for r in comparison["scenarios"]["demo"]["quality"]}
    nd, rc = rows["ndcg@10"]["vs_reference"]["b"], rows["recall@10"]["vs_reference"]["b"]
    assert rows["ndcg@10"]["values"] == {"ref": pytest.approx(fmean(REF["ndcg@10"])),
                                         "b": pytest.approx(fmean(B["ndcg@10"]))}
    assert nd["diff"] == pytest.approx(-0.2) and rc["diff"] == pytest.approx(-1.5 / 8)
    # figures in the comparison keep full precision (comparison.json is not rounded)
    assert nd["p_randomisation"] == pytest.approx(2 / 256, abs=1e-6) and rc["p_randomisation"] == pytest.approx(2 / 8)
    # Holm with m = 2: 2 * 2/256, then max(that, 1 * 2/8)
    assert nd["p_holm"] == pytest.approx(4 / 256, abs=1e-6) and rc["p_holm"] == pytest.approx(0.25)
    assert nd["significant"] and not rc["significant"]
    assert significant_losses(comparison) == {"b": ["demo ndcg@10"]}


def test_category_rows_test_each_category_on_its_own(comparison):
    cats = comparison["scenarios"]["demo"]["quality_by_category"]
    assert set(cats) == {"a", "b"}
    a = {r["metric"]: r for r in cats["a"]}
    # category a: recall drops on 3 of 4 queries by 0.5 -> p = 2/8
    assert a["recall@10"]["vs_reference"]["b"]["p_randomisation"] == pytest.approx(brute_p([-0.5, -0.5, -0.5]), abs=1e-6)
    assert a["ndcg@10"]["values"]["ref"] == pytest.approx(fmean(REF["ndcg@10"][:4]))


def test_scenario_rows_have_directions_and_differences(comparison):
    rows = {r["metric"]: r for r in comparison["scenarios"]["demo"]["scenario"]}
    assert rows["storage_bytes"]["direction"] == "lower" and rows["storage_bytes"]["vs_reference"]["b"]["diff"] == 500
    assert rows["duplicate_rate"]["direction"] == "lower"
    assert rows["check_rate"]["direction"] == "higher"


def test_text_forms_name_every_backend_and_metric(comparison):
    table, md = to_table(comparison), to_markdown(comparison)
    for text in (table, md):
        assert "ndcg@10 ↑" in text and "storage_bytes ↓" in text and "ref" in text
    assert "(-0.200*" in table and "p=0.0156" in md


def test_query_sets_must_match():
    a = section(REF)["per_query"]
    with pytest.raises(QueryMismatch, match="demo: the queries differ"):
        align("demo", a, a[:-1])


def test_scenario_sets_must_match():
    with pytest.raises(ValueError, match="covers scenarios"):
        build_comparison({"ref": report("ref", x=section(REF)), "b": report("b", y=section(REF))}, "ref")


def test_pareto_front_by_hand():
    pts = {"fast-poor": (1.0, 0.3), "slow-good": (5.0, 0.9), "dominated": (6.0, 0.8), "mid": (2.0, 0.6),
           "tie-slower": (2.5, 0.6)}
    assert pareto_front(pts) == ["fast-poor", "mid", "slow-good"]


def test_direction_names():
    assert direction("ndcg@10") == "higher" and direction("check_rate") == "higher"
    assert direction("latency.all.p95") == "lower" and direction("storage_bytes") == "lower"
