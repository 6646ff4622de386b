"""The codemem-bench score against a hand computation."""
import pytest

from bench.report.score import compute_score


def scenario(ndcg=None, passed=0, total=0, steps=10, unsupported=0, p95=None, budget=50.0, targets=()):
    return {"quality": {"ndcg@10": ndcg} if ndcg is not None else {},
            "checks": {"passed": passed, "total": total, "rate": passed / total if total else None},
            "steps": {"total": steps, "unsupported": unsupported},
            "latency_ms": {"all": {"p95": p95}} if p95 is not None else {"all": {"n": 0}},
            "latency_budget_ms": budget, "targets": [{"met": m} for m in targets]}


def test_score_by_hand():
    report = {"scenarios": {
        "a": scenario(ndcg=0.5, passed=3, total=4, steps=10, unsupported=0, p95=100.0, targets=[True, False]),
        "b": scenario(ndcg=0.7, steps=10, unsupported=5, p95=10.0),
    }}
    # quality .6, correctness .75, targets .5, coverage .75, latency (0.5 + 1)/2
    want = 100 * (0.4 * 0.6 + 0.2 * 0.75 + 0.2 * 0.5 + 0.1 * 0.75 + 0.1 * 0.75)
    got = compute_score(report)
    assert got["value"] == pytest.approx(round(want, 2))
    assert got["components"]["latency"] == pytest.approx(0.75)


def test_missing_components_renormalise():
    got = compute_score({"scenarios": {"a": scenario(passed=1, total=2, steps=4)}})
    assert got["value"] == pytest.approx(100 * (0.2 * 0.5 + 0.1 * 1.0) / 0.3, abs=0.01)
    assert compute_score({"scenarios": {}})["value"] is None


def test_targets_weigh_per_scenario_not_pooled():
    # smoke-like: 1 target met; lane-like: 1 of 4 met. Pooled would be 2/5 = .4; per scenario (1 + .25) / 2
    report = {"scenarios": {"a": scenario(targets=[True]), "b": scenario(targets=[True, False, False, False])}}
    assert compute_score(report)["components"]["targets"] == pytest.approx(0.625)


def test_a_target_with_no_value_is_not_met():
    report = {"scenarios": {"a": scenario(targets=[None, True])}}
    assert compute_score(report)["components"]["targets"] == pytest.approx(0.5)
    assert compute_score(report)["version"] == 2
