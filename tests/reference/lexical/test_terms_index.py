"""Code-aware terms and BM25 of `reference.lexical` against hand computation and a plain model."""
from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest

from reference.lexical.index import LexicalIndex
from reference.lexical.terms import entity_terms, index_terms


def test_terms_keep_compounds_and_add_stemmed_parts():
    assert index_terms("Fix Table.insert_all in sqlite_utils/db.py") == [
        "fix", "table.insert_all", "tabl", "insert", "all", "sqlite_utils/db.py", "sqlit", "util", "db", "py"]
    assert index_terms("getUserName caching") == ["getusername", "get", "user", "nam", "cach"]
    # the same rules for a query: a part meets the identifier it is part of
    assert "insert" in index_terms("inserting rows") and "insert" in index_terms("insert_all")


def test_entity_terms_are_files_only():
    text = "Files changed: docs/conf.py, setup.py, README.md; Table.insert_all self.db.execute 3.2.1"
    assert entity_terms(text) == ["docs/conf.py", "setup.py", "readme.md"]


def _model_bm25(docs: dict[str, str], query: str, k1: float, b: float) -> dict[str, float]:
    """Okapi BM25 with Lucene's idf, written out from the formula, one document at a time."""
    toks = {d: Counter(index_terms(t)) for d, t in docs.items()}
    n = len(docs)
    avg = sum(sum(c.values()) for c in toks.values()) / n
    out = {}
    for d, c in toks.items():
        length = sum(c.values())
        s = 0.0
        for term in set(index_terms(query)):
            df = sum(1 for cc in toks.values() if term in cc)
            if term not in c:
                continue
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            s += idf * c[term] * (k1 + 1) / (c[term] + k1 * (1 - b + b * length / avg))
        out[d] = s
    return out


@pytest.mark.parametrize("k1,b", [(1.2, 0.75), (1.5, 0.3), (0.9, 0.0)])
def test_bm25_equals_the_formula_through_adds_and_removes(k1, b):
    rng = random.Random(7)
    words = "alpha bravo_charlie Delta.echo foxtrot src/golf.py hotelIndia kilo lima".split()
    index, live = LexicalIndex(), {}
    for i in range(60):
        text = " ".join(rng.choices(words, k=rng.randint(1, 8)))
        index.add(f"d{i}", text)
        live[f"d{i}"] = text
        if i % 7 == 3:
            gone = rng.choice(sorted(live))
            assert index.remove(gone)
            del live[gone]
    assert not index.remove("d-none")
    for query in ("alpha", "bravo charlie", "delta.echo golf", "src/golf.py", "india kilo lima alpha"):
        got = index.bm25(query, k1, b)
        want = _model_bm25(live, query, k1, b)
        for d, s in want.items():
            assert got[index.row_of[d]] == pytest.approx(s, rel=1e-9, abs=1e-12)
        dead = [r for r, d in enumerate(index.ids) if d not in live]
        assert np.all(got[dead] == 0.0)


def test_add_refuses_a_live_id_and_empty_index_scores_nothing():
    index = LexicalIndex()
    assert index.bm25("x", 1.2, 0.75).size == 0
    index.add("a", "x")
    with pytest.raises(ValueError, match="already indexed"):
        index.add("a", "y")
