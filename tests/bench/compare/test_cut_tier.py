"""The bounded tier (`--queries N`, bench/scenario/cut.py): the same prefix of every scenario for every backend,
the kept queries judged as in the full file, the dropped ones neither scored nor counted against anyone."""
import json

import pytest

from bench.cli.main import main
from bench.scenario.cut import cut_all, cut_at_queries
from bench.scenario.suites import resolve, suites


def judged(scenario):
    return [s for s in scenario.steps if s.expect is not None and s.expect.relevant is not None]


def test_the_cut_keeps_the_first_n_judged_queries_and_every_step_before_them():
    full = resolve(["sqlite-utils-blame"])[0]
    cut = cut_at_queries(full, 5)
    assert judged(cut) == judged(full)[:5]                    # the same steps, judgements untouched
    assert cut.steps == full.steps[: full.steps.index(judged(full)[4]) + 1]
    assert cut.steps[-1] is judged(full)[4]                   # nothing after the last kept query
    writes = [s for s in cut.steps if s.name == "memory_write_structured"]
    assert 0 < len(writes) < len([s for s in full.steps if s.name == "memory_write_structured"])
    assert "first 5 of 150 judged queries" in cut.header.description
    assert cut.header.description.startswith(full.header.description)
    assert len(judged(full)) == 150                           # the loaded scenario itself is not changed


def test_a_scenario_with_no_more_queries_than_the_cut_is_kept_whole():
    smoke, pit = resolve(["smoke", "graph-pit"])
    assert cut_at_queries(smoke, len(judged(smoke))) is smoke
    assert cut_at_queries(pit, 1) is pit                      # no judged query at all
    assert cut_all([smoke], None) == [smoke]


def test_cut_all_cuts_the_history_scenarios_and_runs_the_inline_judged_ones_whole():
    blame, lane, knowledge = resolve(["httpx-blame", "memory-lane", "knowledge"])
    got = cut_all([blame, lane, knowledge], 4)
    assert len(judged(got[0])) == 4 and got[0].header.oracle == "httpx-blame"
    assert got[1] is lane and got[2] is knowledge              # no oracle folder: judged inline, run whole
    assert len(judged(lane)) > 4 and len(judged(knowledge)) > 4


@pytest.mark.parametrize("n", [0, -3, 2.5, True, "4"])
def test_a_cut_must_be_a_positive_whole_number(n):
    smoke = resolve(["smoke"])[0]
    with pytest.raises(ValueError, match="--queries must be a whole number of at least 1"):
        cut_at_queries(smoke, n)


def test_compare_with_queries_scores_only_the_kept_queries_for_every_backend_and_says_so(tmp_path):
    out = tmp_path / "cmp"
    assert main(["compare", "smoke", "sqlite-utils-blame", "--backends", "reference,fts-baseline", "--queries", "3",
                 "--out", str(out), "--quiet"]) == 0
    for slug in ("reference", "fts-baseline"):
        rep = json.loads((out / slug / "report.json").read_text())
        s = rep["scenarios"]["sqlite-utils-blame"]
        assert len(s["per_query"]) == 3                       # 3 scored, none of the dropped counted as 0
        assert "first 3 of 150 judged queries" in s["description"]
        assert rep["environment"]["cut"] == {"queries": 3}
        assert s["baselines"]["bm25"]["queries"] == 3         # the baselines see the same cut
        assert len(rep["scenarios"]["smoke"]["per_query"]) == 12   # judged inline: whole
    doc = json.loads((out / "side_by_side.json").read_text())
    assert doc["cut"] == 3 and "--queries 3" in doc["command"] and doc["commit"]
    names = [r["backend"] for r in doc["rows"]]
    assert names == ["reference", "fts-baseline", "BM25 baseline", "recency baseline"]
    bm25 = doc["rows"][2]
    assert bm25["baseline"] and bm25["score"] is None and set(bm25["ndcg@10"]) == {"smoke", "sqlite-utils-blame"}


def test_the_side_by_side_suite_is_the_default_suite_without_the_blame_paths_replays():
    s = suites()
    assert s["side-by-side"] == [n for n in s["default"] if not n.endswith("-blame-paths")]


def test_a_census_that_could_not_run_is_said_so_not_counted_as_no_loss():
    from bench.compare.side_by_side import _lost
    locked = {"backend": "mem0", "agents": 4, "error": "RuntimeError: agents did not all open the store: locked"}
    assert _lost(locked) == "not run: 4 processes cannot open one store"
    assert _lost({"backend": "x", "agents": 4, "error": "OSError: disk"}).startswith("not run: error")
    assert _lost({"lost": 3, "acknowledged": 77, "refused": 0}) == "3/77"
    assert _lost({"lost": 0, "acknowledged": 1, "refused": 79, "unverifiable": 1}) == "1 unverifiable (no get) (79 refused)"
    assert _lost(None) is None


def test_a_scenario_whose_queries_were_all_unsupported_shows_no_ndcg_not_zero():
    from bench.compare.side_by_side import ndcg_or_none
    unrun = {"quality": {"ndcg@10": 0.0}, "per_query": [{"unsupported": True}, {"unsupported": True}]}
    searched_badly = {"quality": {"ndcg@10": 0.0}, "per_query": [{"unsupported": False}, {"unsupported": True}]}
    assert ndcg_or_none(unrun) is None
    assert ndcg_or_none(searched_badly) == 0.0
