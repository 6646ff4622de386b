"""Ranking metrics against values computed by hand, and their properties; none of this needs ranx.

The cross-check against ranx is in test_metrics_ranx.py, the only module that skips without it.
"""
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.metrics import mrr, ndcg, percentiles, precision, ranking_metrics, recall

RANKED = ["a", "x", "b", "y", "c"]
GRADES = {"a": 2, "b": 1, "c": 1, "d": 3}


def test_recall_by_hand():
    assert recall(RANKED, GRADES, 3) == pytest.approx(2 / 4)
    assert recall(RANKED, GRADES, 5) == pytest.approx(3 / 4)


def test_precision_keeps_k_fixed():
    assert precision(RANKED, GRADES, 5) == pytest.approx(3 / 5)
    assert precision(["a"], GRADES, 10) == pytest.approx(1 / 10)


def test_mrr_by_hand():
    assert mrr(["x", "y", "b"], GRADES, 10) == pytest.approx(1 / 3)
    assert mrr(["x", "y", "b"], GRADES, 2) == 0.0


def test_ndcg_by_hand():
    dcg = 2 / math.log2(2) + 1 / math.log2(4) + 1 / math.log2(6)
    idcg = 3 / math.log2(2) + 2 / math.log2(3) + 1 / math.log2(4) + 1 / math.log2(5)
    assert ndcg(RANKED, GRADES, 10) == pytest.approx(dcg / idcg)


def test_empty_results_score_zero():
    assert ranking_metrics([], GRADES, 10) == {"recall@10": 0.0, "precision@10": 0.0, "mrr@10": 0.0, "ndcg@10": 0.0}


def test_duplicates_count_once():
    assert recall(["a", "a", "a"], {"a": 1, "b": 1}, 3) == pytest.approx(0.5)
    assert precision(["a", "a"], {"a": 1}, 2) == pytest.approx(0.5)


def test_no_relevant_is_an_error():
    with pytest.raises(ValueError):
        recall(["a"], {}, 10)
    with pytest.raises(ValueError):
        ndcg(["a"], {"a": 0}, 10)


def test_percentiles_by_hand():
    p = percentiles([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    assert p["p50"] == pytest.approx(5.5) and p["p95"] == pytest.approx(9.55) and p["n"] == 10
    assert percentiles([]) == {"n": 0}


ids = st.sampled_from([f"d{i}" for i in range(12)])


@settings(max_examples=200, deadline=None)
@given(st.lists(ids, max_size=15), st.dictionaries(ids, st.integers(1, 3), min_size=1), st.integers(1, 12))
def test_metric_bounds_and_monotonic_recall(ranked, grades, k):
    m = ranking_metrics(ranked, grades, k)
    assert all(0.0 <= v <= 1.0 + 1e-12 for v in m.values())
    assert recall(ranked, grades, k) <= recall(ranked, grades, k + 1) + 1e-12


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(ids, st.integers(1, 3), min_size=1))
def test_ideal_ranking_scores_one(grades):
    ideal = sorted(grades, key=lambda d: (-grades[d], d))
    assert ndcg(ideal, grades, 10) == pytest.approx(1.0)
    assert mrr(ideal, grades, 10) == 1.0
