"""The gate's decisions on hand-built reports, with expected p-values computed by hand."""
from statistics import fmean

import pytest

from bench.gate import GateInputError, GateOptions, LatencySpec, parse_latency, run_gate
from bench.gate.latency_spec import DEFAULT_LATENCY
from bench.report import Report


def section(values, *, check_rate=1.0, extra=None, p50s=(1.0,), samples=None, unsupported=0):
    n = len(next(iter(values.values())))
    per_query = [{"id": f"q{i}", "line": i + 2, "category": None, "unsupported": False, "retrieved": [],
                  **{m: v[i] for m, v in values.items()}} for i in range(n)]
    reps = [{"all": {"p50": x, "p95": 2 * x, "p99": 3 * x, "mean": x, "n": 10}} for x in p50s]
    return {"description": "", "steps": {"total": 20, "ok": 20 - unsupported, "failed": 0, "error": 0,
                                         "unsupported": unsupported},
            "quality": {**{m: round(fmean(v), 6) for m, v in values.items()}, "queries": n, "unsupported_queries": 0},
            "quality_by_category": {}, "checks": {"passed": 0, "total": 10, "rate": check_rate},
            "metrics": extra or {}, "latency_ms": reps[0], "latency_budget_ms": 50.0, "storage_bytes": 1,
            "targets": [], "problems": [], "unsupported": {}, "per_query": per_query,
            "latency_repetitions": reps, "latency_samples_ms": samples if samples is not None else {}}


def report(**scenarios):
    return Report("demo-backend", [], scenarios, {})


# mean nDCG 9.4 / 12 = 0.783
BASE = {"ndcg@10": [0.9, 0.8, 1.0, 0.7, 0.6, 0.9, 0.5, 0.8, 0.9, 0.7, 0.6, 1.0],
        "recall@10": [1.0] * 12}
QUALITY_ONLY = GateOptions(latency=())


def lines(result, kind=None):
    return [f.line() for f in result.findings if kind is None or f.kind == kind]


def test_identical_reports_pass_with_zero_difference():
    r = run_gate(report(demo=section(BASE)), report(demo=section(BASE)), QUALITY_ONLY)
    assert r.exit_code == 0 and not r.regressions
    assert "ok demo ndcg@10: 0.783 -> 0.783 (+0.000, p=1.000)" in lines(r)


def test_significant_drop_beyond_min_effect_fails_and_names_scenario_and_metric():
    cur = {"ndcg@10": [x - 0.1 for x in BASE["ndcg@10"]],           # all 12 down: p = 2/4096
           "recall@10": [0.8] * 5 + [1.0] * 7}                       # 5 down: p = 2/32
    r = run_gate(report(demo=section(cur)), report(demo=section(BASE)), QUALITY_ONLY)
    assert r.exit_code == 1
    # Holm over 2 metrics: 2 * 2/4096 < 0.001; recall max(that, 2/32) = 0.0625 >= alpha
    assert lines(r, "regression") == ["REGRESSION demo ndcg@10: 0.783 -> 0.683 (-0.100, p<0.001)"]
    rec = next(f for f in r.findings if f.metric == "recall@10")
    assert rec.kind == "ok" and rec.p_value == pytest.approx(0.0625)


def test_drop_below_min_effect_passes_even_when_significant():
    cur = {"ndcg@10": [x - 0.005 for x in BASE["ndcg@10"]], "recall@10": BASE["recall@10"]}
    r = run_gate(report(demo=section(cur)), report(demo=section(BASE)), QUALITY_ONLY)
    assert r.exit_code == 0
    assert next(f for f in r.findings if f.metric == "ndcg@10").p_value == pytest.approx(2 * 2 / 4096)
    r = run_gate(report(demo=section(cur)), report(demo=section(BASE)), GateOptions(min_effect=0.001, latency=()))
    assert r.exit_code == 1


def test_large_drop_on_one_query_is_not_significant():
    cur = {"ndcg@10": [0.0] + BASE["ndcg@10"][1:], "recall@10": BASE["recall@10"]}  # mean -0.075, p = 1
    r = run_gate(report(demo=section(cur)), report(demo=section(BASE)), QUALITY_ONLY)
    assert r.exit_code == 0 and "(-0.075, p=1.000)" in lines(r)[0]


def test_improvement_is_reported_not_failed():
    cur = {"ndcg@10": [min(1.0, x + 0.05) for x in BASE["ndcg@10"]], "recall@10": BASE["recall@10"]}
    r = run_gate(report(demo=section(cur)), report(demo=section(BASE)), QUALITY_ONLY)
    assert r.exit_code == 0 and lines(r, "improvement")[0].startswith("improved demo ndcg@10: ")


def test_deterministic_scenario_figures_fail_on_the_min_effect():
    r = run_gate(report(demo=section(BASE, check_rate=0.9, extra={"duplicate_rate": 0.2})),
                 report(demo=section(BASE, check_rate=1.0, extra={"duplicate_rate": 0.1})), QUALITY_ONLY)
    assert lines(r, "regression") == [
        "REGRESSION demo check_rate: 1.000 -> 0.900 (-0.100, deterministic)",
        "REGRESSION demo duplicate_rate: 0.100 -> 0.200 (+0.100, deterministic)"]


def test_metrics_option_limits_what_is_gated():
    cur = {"ndcg@10": [x - 0.1 for x in BASE["ndcg@10"]], "recall@10": BASE["recall@10"]}
    r = run_gate(report(demo=section(cur)), report(demo=section(BASE)),
                 GateOptions(latency=(), metrics=("recall@10",)))
    assert r.exit_code == 0 and {f.metric for f in r.findings} == {"recall@10"}


# --- latency -----------------------------------------------------------------------------

FAST = {"all": [1.0 + i / 100 for i in range(60)]}
SLOW = {"all": [x + 3.0 for x in FAST["all"]]}
P50 = (LatencySpec("all", "p50", 0.10, 1.0),)


def test_latency_regression_needs_both_thresholds_and_the_rank_test():
    base = section(BASE, p50s=(1.0, 1.2, 1.1), samples=FAST)
    slow = section(BASE, p50s=(4.1, 4.0, 4.3), samples=SLOW)
    r = run_gate(report(demo=slow), report(demo=base), GateOptions(latency=P50))
    assert r.exit_code == 1
    (line,) = lines(r, "regression")
    # medians 1.1 -> 4.1 ms: +3.0 ms, +273 %
    assert line.startswith("REGRESSION demo latency.all.p50: 1.100 ms -> 4.100 ms (+3.000 ms, +273%, p<0.001; "
                           "medians of 3 vs 3 repetitions")


def test_noisy_medians_without_a_shift_in_the_samples_pass():
    base = section(BASE, p50s=(1.0, 1.2, 1.1), samples=FAST)
    noisy = section(BASE, p50s=(4.1, 4.0, 4.3), samples=FAST)  # same samples: U test p > alpha
    r = run_gate(report(demo=noisy), report(demo=base), GateOptions(latency=P50))
    assert r.exit_code == 0


def test_significant_shift_below_the_absolute_threshold_passes():
    base = section(BASE, p50s=(1.0,), samples=FAST)
    cur = section(BASE, p50s=(1.5,), samples={"all": [x + 0.5 for x in FAST["all"]]})
    r = run_gate(report(demo=cur), report(demo=base), GateOptions(latency=P50))  # +0.5 ms < 1 ms
    assert r.exit_code == 0
    assert next(f for f in r.findings if f.metric == "latency.all.p50").p_value < 0.001


def test_latency_without_samples_is_a_note_not_a_verdict():
    r = run_gate(report(demo=section(BASE, p50s=(9.0,), samples={})),
                 report(demo=section(BASE, p50s=(1.0,), samples={})), GateOptions(latency=P50))
    assert r.exit_code == 0 and any("no latency samples" in x for x in lines(r, "note"))


def test_unknown_latency_group_is_a_note():
    r = run_gate(report(demo=section(BASE)), report(demo=section(BASE)),
                 GateOptions(latency=(LatencySpec("nosuchstep", "p95", 0.1),)))
    assert r.exit_code == 0 and "latency.nosuchstep.p95: no such latency figure" in " ".join(lines(r, "note"))


# --- inputs ------------------------------------------------------------------------------

def test_different_scenario_sets_are_an_input_error():
    with pytest.raises(GateInputError, match=r"only in the report \['other'\]"):
        run_gate(report(demo=section(BASE), other=section(BASE)), report(demo=section(BASE)))


def test_nothing_ran_exits_3():
    r = run_gate(report(demo=section(BASE, unsupported=20)), report(demo=section(BASE)))
    assert r.exit_code == 3


def test_parse_latency_syntax():
    assert parse_latency(None) == DEFAULT_LATENCY
    assert parse_latency(["off"]) == ()
    assert parse_latency(["p95:10%"]) == (LatencySpec("all", "p95", 0.10, 0.0),)
    assert parse_latency(["queries.p95:10%:2ms"]) == (LatencySpec("queries", "p95", 0.10, 2.0),)
    assert parse_latency(["p50:5%:500us,p99:20%:3"]) == (LatencySpec("all", "p50", 0.05, 0.5),
                                                          LatencySpec("all", "p99", 0.20, 3.0))
    assert parse_latency(["p95:10%", "p95:30%"]) == (LatencySpec("all", "p95", 0.30, 0.0),)
    for bad, msg in [("p95", "expected"), ("p42:10%", "not one of"), ("p95:10", "expected"),
                     ("off,p95:10%", "cannot be combined")]:
        with pytest.raises(ValueError, match=msg):
            parse_latency([bad])
