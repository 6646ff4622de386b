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


MACHINE = {"cpu_model": "Demo CPU", "cpu_count": 2, "arch": "x86_64", "system": "Linux", "hostname": "ci-1",
           "python": "CPython 3.11.7"}


def report(env=None, **scenarios):
    return Report("demo-backend", [], scenarios, {"machine": MACHINE, "job": "job-1"} if env is None else env)


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
    assert r.exit_code == 0 and "(-0.075, p=1.000)" in lines(r, "ok")[0]


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
    assert r.exit_code == 0 and {f.metric for f in r.findings if f.scenario != "*"} == {"recall@10"}


# --- latency -----------------------------------------------------------------------------

FAST = {"all": [1.0 + i / 100 for i in range(60)]}
SLOW = {"all": [x + 3.0 for x in FAST["all"]]}
P50 = (LatencySpec("all", "p50", 0.10, 1.0),)


def test_latency_regression_needs_both_thresholds_and_the_quantile_test():
    r = run_gate(report(demo=section(BASE, samples=SLOW)), report(demo=section(BASE, samples=FAST)),
                 GateOptions(latency=P50))
    assert r.exit_code == 1
    (line,) = lines(r, "regression")
    # p50 of 1.00 .. 1.59 is 1.295; +3 ms is +232 %
    assert line.startswith("REGRESSION demo latency.all.p50: 1.295 ms -> 4.295 ms (+3.000 ms, +232%, p<0.001; ")


def test_significant_shift_below_the_absolute_threshold_passes():
    cur = section(BASE, samples={"all": [x + 0.5 for x in FAST["all"]]})
    r = run_gate(report(demo=cur), report(demo=section(BASE, samples=FAST)), GateOptions(latency=P50))  # +0.5 < 1 ms
    assert r.exit_code == 0
    assert next(f for f in r.findings if f.metric == "latency.all.p50").p_value < 0.001


def test_large_quantile_move_the_test_does_not_confirm_passes():
    # half the samples at 1 ms, half at 5 ms: one sample more on the slow side moves p50 from 1 to 5 ms
    base = {"all": [1.0] * 21 + [5.0] * 20}
    cur = {"all": [1.0] * 20 + [5.0] * 21}
    r = run_gate(report(demo=section(BASE, samples=cur)), report(demo=section(BASE, samples=base)),
                 GateOptions(latency=P50))
    f = next(f for f in r.findings if f.metric == "latency.all.p50")
    assert f.current - f.baseline == pytest.approx(4.0) and f.p_value > 0.05 and f.kind == "ok"


def test_default_gates_each_tool_step_type_on_its_p10_but_not_directives():
    fast = {"memory_search_structured": [1.0 + i / 100 for i in range(30)], "memory_get": [0.2] * 30,
            "memory_write_structured": [2.0 + i / 100 for i in range(30)], "advance_clock": [0.01] * 30}
    slow = {**fast, "memory_search_structured": [x + 5 for x in fast["memory_search_structured"]],
            "memory_write_structured": [x + 5 for x in fast["memory_write_structured"]],  # writes: 300 % and 10 ms
            "advance_clock": [9.0] * 30}
    r = run_gate(report(demo=section(BASE, samples=slow)), report(demo=section(BASE, samples=fast)))
    assert r.exit_code == 1
    assert [f.metric for f in r.regressions] == ["latency.memory_search_structured.p10"]
    gated = {f.metric for f in r.findings if f.metric.startswith("latency.") and f.kind != "note"}
    assert gated == {"latency.memory_search_structured.p10", "latency.memory_get.p10",
                     "latency.memory_write_structured.p10"}
    much_slower = {**fast, "memory_write_structured": [x + 20 for x in fast["memory_write_structured"]]}
    r = run_gate(report(demo=section(BASE, samples=much_slower)), report(demo=section(BASE, samples=fast)))
    assert [f.metric for f in r.regressions] == ["latency.memory_write_structured.p10"]


def test_holm_runs_over_every_step_type_of_every_scenario():
    one = {"memory_get": [1.0 + i / 100 for i in range(25)]}
    slightly = {"memory_get": [1.0 + i / 100 for i in range(4)] + [9.0] * 21}  # p10 moves a little
    spec = (LatencySpec("steps", "p10", 0.0, 0.0),)
    alone = run_gate(report(a=section(BASE, samples=slightly)), report(a=section(BASE, samples=one)),
                     GateOptions(latency=spec))
    many = run_gate(report(**{n: section(BASE, samples=slightly if n == "a" else one) for n in "abcdef"}),
                    report(**{n: section(BASE, samples=one) for n in "abcdef"}), GateOptions(latency=spec))
    p_alone = next(f.p_value for f in alone.findings if f.metric == "latency.memory_get.p10")
    p_many = next(f.p_value for f in many.findings if f.scenario == "a" and f.metric == "latency.memory_get.p10")
    assert p_many == pytest.approx(min(1.0, 6 * p_alone))


def test_groups_with_few_samples_are_named_not_gated():
    few = {"memory_get": [1.0] * 5}
    r = run_gate(report(demo=section(BASE, samples={"memory_get": [9.0] * 5})), report(demo=section(BASE, samples=few)))
    assert r.exit_code == 0 and any("fewer than 20 samples" in x and "demo/memory_get" in x for x in lines(r, "note"))


def test_latency_without_samples_is_a_note_not_a_verdict():
    r = run_gate(report(demo=section(BASE, samples={})), report(demo=section(BASE, samples={})),
                 GateOptions(latency=P50))
    assert r.exit_code == 0 and any("no latency samples" in x for x in lines(r, "note"))


def test_unknown_latency_group_is_a_note():
    r = run_gate(report(demo=section(BASE, samples=FAST)), report(demo=section(BASE, samples=FAST)),
                 GateOptions(latency=(LatencySpec("nosuchstep", "p95", 0.1),)))
    assert r.exit_code == 0 and "latency.nosuchstep.p95: no such latency group" in " ".join(lines(r, "note"))


def test_across_machines_latency_is_not_gated_and_one_line_says_so():
    other = {"machine": {**MACHINE, "hostname": "laptop", "cpu_count": 8}}
    r = run_gate(report(demo=section(BASE, samples=SLOW)), report(env=other, demo=section(BASE, samples=FAST)),
                 GateOptions(latency=P50))
    assert r.exit_code == 0 and not any(f.metric.startswith("latency.") for f in r.findings)
    (note,) = [x for x in lines(r, "note") if "latency" in x]
    assert note == ("note * latency: not gated, quality gated alone: the reports come from different machines "
                    "(cpu_count 2 vs 8; hostname ci-1 vs laptop)")
    # a baseline made before fingerprints were recorded is another machine too
    r = run_gate(report(demo=section(BASE, samples=SLOW)), report(env={}, demo=section(BASE, samples=FAST)),
                 GateOptions(latency=P50))
    assert r.exit_code == 0 and "no machine fingerprint in the baseline" in " ".join(lines(r, "note"))


def test_across_machines_quality_is_still_gated():
    other = {"machine": {**MACHINE, "hostname": "laptop"}}
    cur = {"ndcg@10": [x - 0.1 for x in BASE["ndcg@10"]], "recall@10": BASE["recall@10"]}
    r = run_gate(report(demo=section(cur)), report(env=other, demo=section(BASE)))
    assert r.exit_code == 1 and [f.metric for f in r.regressions] == ["ndcg@10"]


# --- inputs ------------------------------------------------------------------------------

def test_a_scenario_missing_from_the_baseline_is_an_input_error():
    with pytest.raises(GateInputError, match=r"only in the report, not in the baseline: \['other'\]"):
        run_gate(report(demo=section(BASE), other=section(BASE)), report(demo=section(BASE)))


def test_a_subset_of_the_baselines_scenarios_is_gated_and_the_rest_named():
    worse = {"ndcg@10": [x - 0.1 for x in BASE["ndcg@10"]], "recall@10": BASE["recall@10"]}
    r = run_gate(report(b=section(worse)), report(a=section(BASE), b=section(BASE), c=section(BASE)), QUALITY_ONLY)
    assert r.exit_code == 1 and {f.scenario for f in r.regressions} == {"b"}
    assert "note * scenarios: gated 1 of the baseline's 3 scenarios; not in the report, skipped: a, c" in lines(r)


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
    assert parse_latency(["reads.p10:100%:2ms,writes.p10:300%:10ms"]) == (
        LatencySpec("reads", "p10", 1.0, 2.0), LatencySpec("writes", "p10", 3.0, 10.0)) == DEFAULT_LATENCY
    for bad, msg in [("p95", "expected"), ("p42:10%", "not one of"), ("mean:10%", "not one of"), ("p95:10", "expected"),
                     ("off,p95:10%", "cannot be combined")]:
        with pytest.raises(ValueError, match=msg):
            parse_latency([bad])
