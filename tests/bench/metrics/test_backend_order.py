"""A ranked result is graded in the order the backend returned it; scores are information only."""
import pytest

from bench.backends.interface import Hit
from bench.export import run_lines
from bench.metrics import ranking_metrics
from bench.steps.memory import ranked

# the backend put `c` first although `a` has the higher score
HITS = [Hit("c", 0.2), Hit("b", 0.5), Hit("a", 0.9)]
GRADES = {"a": 2}


def test_outcome_keeps_the_backend_order_and_its_scores():
    out = ranked(HITS)
    assert out.ranked == ["c", "b", "a"] and out.scores == [0.2, 0.5, 0.9]


def test_metrics_grade_that_order():
    m = ranking_metrics(ranked(HITS).ranked, GRADES)
    assert m["mrr@10"] == pytest.approx(1 / 3) and m["ndcg@10"] == pytest.approx(0.5)


def test_trec_run_writes_ranks_in_that_order_with_monotone_scores():
    assert run_lines([{"id": "q", "retrieved": ranked(HITS).ranked}], "t") == [
        "q Q0 c 1 3 t", "q Q0 b 2 2 t", "q Q0 a 3 1 t"]


@pytest.mark.ranx
def test_ranx_on_the_exported_run_agrees():
    ranx = pytest.importorskip("ranx")
    lines = run_lines([{"id": "q", "retrieved": ranked(HITS).ranked}], "t")
    run = ranx.Run({"q": {ln.split()[2]: float(ln.split()[4]) for ln in lines}})
    assert ranx.evaluate(ranx.Qrels({"q": GRADES}), run, "ndcg@10") == pytest.approx(0.5)
