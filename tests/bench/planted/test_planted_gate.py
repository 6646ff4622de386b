"""Planted faults fail the gate's quality side; the honest reference passes it every time.

Each planted backend (tests/bench/planted/backends.py) is the reference store with one fault.
The baseline is an honest reference run made here, on small scenarios: smoke, graph-pit and
a synthetic one with 120 writes and 30 single-answer queries (and `sqlite-utils-branches` for project
memory's faults, which the small suite cannot catch). Quality is deterministic, so
the honest reference must pass against its own baseline on every one of
`CODEMEM_PLANTED_REPEATS` runs (default 3; the issue's 10 of 10 is `CODEMEM_PLANTED_REPEATS=10`).

On the whole small suite (every fault, about 2 minutes on a quiet 2-core machine, 5 loaded):
`CODEMEM_PLANTED_SMALL=1`, or `python3 -m tests.bench.planted.gate_each --suite small` as `.ci/run` does.
"""
from __future__ import annotations

import os

import pytest

from bench.backends.registry import register_backend, unregister_backend
from bench.gate import EXIT_PASS, EXIT_REGRESSION, GateOptions, run_gate
from bench.run import run_suite
from bench.scenario.loader import load_scenario
from bench.scenario.suites import resolve
from tests.bench.planted.backends import (BRANCH_FAILS, GATE_FAILS, PLANTED, DuplicateTop, EmptyReads,
                                          IgnoresFilters, KeepsSecondCopy, LosesWrites, MissesLastWrite, RaisingReads,
                                          StalePointInTime, SwappedOrder)
from tests.bench.planted.gate_each import gate_each
from tests.bench.planted.synthetic import write_synthetic

QUALITY_ONLY = GateOptions(latency=())
REPEATS = int(os.environ.get("CODEMEM_PLANTED_REPEATS", "3"))


@pytest.fixture(scope="module", autouse=True)
def planted():
    for cls in PLANTED:
        register_backend(cls.name, cls)
    yield
    for cls in PLANTED:
        unregister_backend(cls.name)


@pytest.fixture(scope="module")
def scenarios(tmp_path_factory):
    return {"smoke": resolve(["smoke"]), "graph-pit": resolve(["graph-pit"]),
            "synthetic": [load_scenario(write_synthetic(tmp_path_factory.mktemp("synthetic")))],
            "branches": resolve(["sqlite-utils-branches"])}


@pytest.fixture(scope="module")
def baselines(scenarios, tmp_path_factory):
    return {name: run_suite("reference", scs, tmp_path_factory.mktemp(f"base-{name}"))
            for name, scs in scenarios.items() if name != "branches"}


@pytest.fixture(scope="module")
def branches_baseline(scenarios, tmp_path_factory):
    """An honest run of `sqlite-utils-branches` (about 10 s), made only for the tests that need it."""
    return run_suite("reference", scenarios["branches"], tmp_path_factory.mktemp("base-branches"))


def gate(spec, suite, scenarios, baselines, tmp_path):
    report = run_suite(spec, scenarios[suite], tmp_path / f"{spec}-{suite}")
    return report, run_gate(report, baselines[suite], QUALITY_ONLY)


def regressed(result) -> set[str]:
    return {f.metric for f in result.regressions}


@pytest.mark.parametrize("suite", ["smoke", "graph-pit", "synthetic"])
def test_honest_reference_passes_every_time(suite, scenarios, baselines, tmp_path):
    for i in range(REPEATS):
        report, result = gate("reference", suite, scenarios, baselines, tmp_path / str(i))
        assert result.exit_code == EXIT_PASS, [f.to_dict() for f in result.regressions]
        section = report.scenarios[scenarios[suite][0].name]
        assert section["census"]["lost"] == 0 and section["census"]["verified"] > 0


@pytest.mark.parametrize("suite", ["smoke", "graph-pit"])
def test_reads_that_raise_fail_the_gate(suite, scenarios, baselines, tmp_path):
    report, result = gate(RaisingReads.name, suite, scenarios, baselines, tmp_path)
    assert result.exit_code == EXIT_REGRESSION and "check_rate" in regressed(result)
    section = report.scenarios[scenarios[suite][0].name]
    # every raising read is a listed problem naming the exception type; ValueError is a declared refusal
    assert section["problems"] and all("ValueError" in p["message"] for p in section["problems"]
                                       if p["message"] != "census: acknowledged write cannot be read back")
    assert section["steps"]["failed"] > 0 and section["steps"]["error"] == 0


def test_reads_that_raise_score_far_below_reads_that_answer(scenarios, baselines, tmp_path):
    raising = run_suite(RaisingReads.name, scenarios["smoke"], tmp_path / "raising").score["value"]
    empty = run_suite(EmptyReads.name, scenarios["smoke"], tmp_path / "empty").score["value"]
    honest = baselines["smoke"].score["value"]
    assert raising < honest - 40, (raising, honest)
    assert raising <= empty, "raising must never beat answering wrongly"
    queries = run_suite(RaisingReads.name, scenarios["smoke"], tmp_path / "q").scenarios["smoke"]["per_query"]
    assert queries and all(q["ndcg@10"] == 0.0 for q in queries)


def test_swapped_order_with_scores_kept_fails_the_gate(scenarios, baselines, tmp_path):
    # on smoke, whose judged answers the reference ranks first (nDCG@10 .98): a swap of ranks 1 and 3 must show.
    # (Not on the synthetic scenario: there the default ranker puts the exact note first in few queries, because
    # seed 001's enrichment takes the template-alike newer notes for updates of it, so a swap of ranks 1 and 3
    # can leave nDCG as it was; that weakness is the knowledge layer's, reference/knowledge/README.md.)
    report, result = gate(SwappedOrder.name, "smoke", scenarios, baselines, tmp_path)
    assert result.exit_code == EXIT_REGRESSION and "ndcg@10" in regressed(result)
    # graded on the order returned: the reference's first answer now sits at rank 3 in every query with three
    first = {q["id"]: q["retrieved"] for q in baselines["smoke"].scenarios["smoke"]["per_query"]}
    swapped = [q for q in report.scenarios["smoke"]["per_query"] if len(first[q["id"]]) >= 3]
    assert swapped and all(q["retrieved"][2] == first[q["id"]][0] for q in swapped)


def test_one_lost_write_in_a_hundred_fails_the_gate(scenarios, baselines, tmp_path):
    report, result = gate(LosesWrites.name, "synthetic", scenarios, baselines, tmp_path)
    census = report.scenarios["synthetic"]["census"]
    assert census == {"acknowledged": 120, "verified": 119, "lost": 1, "unverifiable": 0}
    assert result.exit_code == EXIT_REGRESSION and "census.intact" in regressed(result)
    # the lost write is a failed check and a problem named with the line of the step that wrote it
    (lost,) = [p for p in report.scenarios["synthetic"]["problems"] if p["message"].startswith("census")]
    assert lost["step"] == "memory_write_structured" and lost["line"] == 3 + 2 * 99


def test_lost_graph_writes_fail_the_gate(scenarios, baselines, tmp_path):
    report, result = gate(LosesWrites.name, "graph-pit", scenarios, baselines, tmp_path)
    assert report.scenarios["graph-pit"]["census"]["lost"] >= 1
    assert result.exit_code == EXIT_REGRESSION and {"census.intact", "check_rate"} <= regressed(result)


def test_stale_point_in_time_reads_fail_the_gate(scenarios, baselines, tmp_path):
    report, result = gate(StalePointInTime.name, "graph-pit", scenarios, baselines, tmp_path)
    assert result.exit_code == EXIT_REGRESSION and "check_rate" in regressed(result)
    assert report.scenarios["graph-pit"]["census"]["lost"] == 0  # nothing lost: only the past is wrong


@pytest.mark.parametrize("fault", [DuplicateTop, IgnoresFilters, MissesLastWrite], ids=lambda c: c.name)
def test_answers_a_change_could_spoil_fail_the_gate_on_smoke(fault, scenarios, baselines, tmp_path):
    # smoke asks filtered searches and searches right after a write; every answer here is one of the reference's
    # own answers spoiled, so the drop is the fault's
    report, result = gate(fault.name, "smoke", scenarios, baselines, tmp_path)
    assert result.exit_code == EXIT_REGRESSION and "ndcg@10" in regressed(result)
    assert report.scenarios["smoke"]["census"]["lost"] == 0


def test_a_store_that_keeps_a_second_copy_fails_on_storage_alone(tmp_path):
    # 1,000 writes: the copy (~220 KB) is past the storage bound (1 % + 64 KiB of a ~4 MB store)
    scs = [load_scenario(write_synthetic(tmp_path, writes=1_000))]
    base = run_suite("reference", scs, tmp_path / "base")
    report = run_suite(KeepsSecondCopy.name, scs, tmp_path / "planted")
    assert report.scenarios["synthetic"]["per_query"] == base.scenarios["synthetic"]["per_query"]  # answers right
    result = run_gate(report, base, QUALITY_ONLY)
    assert result.exit_code == EXIT_REGRESSION and regressed(result) == {"storage_bytes"}


@pytest.mark.parametrize("fault", BRANCH_FAILS, ids=lambda c: c.name)
def test_project_memory_faults_fail_the_gate_on_a_branches_scenario(fault, scenarios, branches_baseline, tmp_path):
    # the small suite has no -branches scenario, so .ci/run's gate_each does not run these; the default suite does
    report = run_suite(fault.name, scenarios["branches"], tmp_path / fault.name)
    result = run_gate(report, branches_baseline, QUALITY_ONLY)
    assert result.exit_code == EXIT_REGRESSION and "check_rate" in regressed(result)


@pytest.mark.skipif(os.environ.get("CODEMEM_PLANTED_SMALL") != "1",
                    reason="the small suite for every fault takes minutes: CODEMEM_PLANTED_SMALL=1")
def test_every_planted_fault_fails_the_gate_on_the_small_suite(tmp_path):
    codes = gate_each("small", tmp_path, log=lambda line: None)
    assert codes.pop("reference") == EXIT_PASS
    assert codes == {cls.name: EXIT_REGRESSION for cls in GATE_FAILS}


def test_answering_nothing_instantly_scores_below_an_honest_slow_backend_and_fts_baseline(scenarios, baselines, tmp_path):
    from bench.gate.planted_delay import delayed_search
    slow = delayed_search(100)   # 100 ms before every search: twice smoke's 50 ms budget
    register_backend("honest-slow", slow)
    try:
        honest_slow = run_suite("honest-slow", scenarios["smoke"], tmp_path / "slow").score
    finally:
        unregister_backend("honest-slow")
    empty = run_suite(EmptyReads.name, scenarios["smoke"], tmp_path / "empty").score
    fts = run_suite("fts-baseline", scenarios["smoke"], tmp_path / "fts").score
    assert empty["value"] < honest_slow["value"] and empty["value"] < fts["value"], (empty, honest_slow, fts)
    assert empty["retrieval"] == 0.0 < fts["retrieval"]
    # the empty answers did no work: no latency credit for them, unlike a slow answer's
    assert empty["components"]["latency"] < honest_slow["components"]["latency"]


def test_work_not_done_is_counted_by_why(scenarios, tmp_path):
    honest = run_suite("reference", scenarios["smoke"], tmp_path / "ref").scenarios["smoke"]["work"]
    assert honest["done"] == honest["operations"] > 0
    assert honest["not_done"] == {"unsupported": 0, "raised": 0, "empty": 0}
    empty = run_suite(EmptyReads.name, scenarios["smoke"], tmp_path / "empty").scenarios["smoke"]
    ranked = len(empty["per_query"])
    assert empty["work"]["not_done"] == {"unsupported": 0, "raised": 0, "empty": ranked}
    assert empty["work"]["by_op"]["query"]["done"] == empty["work"]["by_op"]["query"]["operations"] - ranked
    raising = run_suite(RaisingReads.name, scenarios["smoke"], tmp_path / "raise").scenarios["smoke"]["work"]
    assert raising["not_done"]["raised"] > 0 and raising["by_op"]["query"]["done"] == 0   # every search raised
    fts = run_suite("fts-baseline", resolve(["memory-lane"]), tmp_path / "fts").scenarios["memory-lane"]
    assert fts["work"]["not_done"]["unsupported"] == fts["steps"]["unsupported"] > 0
