"""The codemem-bench score against a hand computation."""
import pytest

from bench.report.score import compute_score


def scenario(ndcg=None, passed=0, total=0, steps=10, unsupported=0, p95=None, budget=50.0, targets=(), work=None):
    """A report section; `work` {op: (operations, done, p95 of the done ones)} makes it a version 3 section."""
    extra = {} if work is None else {"work": {
        "operations": sum(n for n, _, _ in work.values()), "done": sum(d for _, d, _ in work.values()),
        "by_op": {op: {"operations": n, "done": d, "p95_ms": p} for op, (n, d, p) in work.items()}}}
    return {**extra, "quality": {"ndcg@10": ndcg} if ndcg is not None else {},
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
    assert compute_score(report)["version"] == 2   # no `work` section: a report made before version 3


def test_version_3_latency_credit_counts_only_work_done_by_hand():
    # 10 operations: 6 writes done at p95 25 ms (within 50), 4 queries of which 2 done at p95 100 ms
    s = scenario(ndcg=0.5, work={"write": (6, 6, 25.0), "query": (4, 2, 100.0)})
    got = compute_score({"scenarios": {"a": s}})
    assert got["version"] == 3
    assert got["components"]["latency"] == pytest.approx((6 * 1.0 + 2 * 0.5) / 10)
    assert got["retrieval"] == 50.0   # the quality component alone, on the score's 0..100 scale


def test_answering_nothing_instantly_earns_no_latency_credit_a_slow_answer_does():
    # the same scenario, backend A answers every query at once with nothing (not done), B slowly (500 ms)
    writes = (6, 6, 5.0)
    empty = scenario(ndcg=0.0, p95=5.0, work={"write": writes, "query": (4, 0, None)})
    slow = scenario(ndcg=0.1, p95=500.0, work={"write": writes, "query": (4, 4, 500.0)})
    a, b = compute_score({"scenarios": {"s": empty}}), compute_score({"scenarios": {"s": slow}})
    assert a["components"]["latency"] == pytest.approx(0.6)             # 6 of 10 done, within budget
    assert b["components"]["latency"] == pytest.approx(0.6 + 0.4 * 0.1)
    assert b["value"] > a["value"]
    # version 2 (p95 over whatever ran) paid the empty answers: 1.0 against 0.1
    old_a, old_b = (compute_score({"scenarios": {"s": {k: v for k, v in x.items() if k != "work"}}})
                    for x in (empty, slow))
    assert old_a["components"]["latency"] == 1.0 and old_b["components"]["latency"] == pytest.approx(0.1)
