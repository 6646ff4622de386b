"""Expansion through shared files and the recency prior, against hand computation."""
from __future__ import annotations

import math

import numpy as np
import pytest

from reference.lexical.expansion import entity_weights, expand
from reference.lexical.index import LexicalIndex
from reference.lexical.params import LexicalParams
from reference.lexical.ranking import hybrid_scores, top_rows
from reference.lexical.recency import recency_prior


def _index() -> LexicalIndex:
    index = LexicalIndex()
    index.add("m0", "token refresh Files: src/auth.py")
    index.add("m1", "unrelated words Files: src/auth.py src/db.py")
    index.add("m2", "other change Files: src/db.py")
    index.add("m3", "nothing shared Files: docs/index.rst")
    return index


def test_expansion_weights_files_of_the_top_hits_by_score_times_idf():
    index = _index()
    scores = np.array([2.0, 0.0, 0.0, 0.0])
    idf_auth = math.log(1 + (4 - 2 + 0.5) / (2 + 0.5))
    assert entity_weights(index, scores, top=1) == pytest.approx({"src/auth.py": 2.0 * idf_auth})
    # m0 and m1 touched src/auth.py: both get its whole weight, normalised to 1; the others nothing
    assert expand(index, scores, top=1).tolist() == [1.0, 1.0, 0.0, 0.0]
    assert expand(index, scores, top=0).tolist() == [0.0] * 4
    # a seed row must be allowed: with m0 ruled out nothing scores, so nothing is expanded
    assert expand(index, scores, top=2, allowed=np.array([False, True, True, True])).tolist() == [0.0] * 4


def test_recency_prior_over_the_write_order():
    got = recency_prior(5, 2.0)
    assert got.tolist() == pytest.approx([math.exp(-4 / 2), math.exp(-3 / 2), math.exp(-1), math.exp(-0.5), 1.0])
    assert recency_prior(3, 0.0).tolist() == [0.0, 0.0, 0.0]
    far = recency_prior(1000, 10.0)
    assert far[0] == 0.0 and far[-1] == 1.0   # beyond the horizon: 0


def test_pipeline_adds_the_parts_and_respects_the_filter():
    index = _index()
    p = LexicalParams(k1=1.2, b=0.5, vector_weight=0.0, expand_top=1, expand_weight=0.5,
                      recency_weight=0.1, recency_scale=1.0)
    s = hybrid_scores(index, "token refresh", p)
    bm = index.bm25("token refresh", 1.2, 0.5)
    want = bm / bm.max() + 0.5 * np.array([1.0, 1.0, 0.0, 0.0]) + 0.1 * recency_prior(4, 1.0)
    assert s == pytest.approx(want)
    assert [r for r, _ in top_rows(s, 2, index.ids)] == [0, 1]
    masked = hybrid_scores(index, "token refresh", p, allowed=np.array([False, True, True, True]))
    assert masked[0] == -np.inf and [r for r, _ in top_rows(masked, 10, index.ids)] == [3, 2, 1]
