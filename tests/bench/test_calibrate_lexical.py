"""bench.calibrate_lexical: a query sees only the memories written before it; the fit prints its choices."""
from __future__ import annotations

import io

from bench.calibrate_lexical import Stream, evaluate, fit
from reference.embed import HashingEmbedder
from reference.lexical.params import SEED


def _stream(texts, queries) -> Stream:
    emb = HashingEmbedder()
    st = Stream("tiny", texts=list(texts), ids=[f"m{i}" for i in range(len(texts))], queries=list(queries))
    st.vectors, st.qvectors = emb.embed(st.texts), emb.embed([q for _, q, _ in st.queries])
    return st


def test_a_query_sees_only_what_was_written_before_it():
    texts = ["token refresh race in src/auth.py", "billing invoice rounding", "token refresh fix in src/auth.py"]
    before = _stream(texts, [(3, "token refresh", {"m2": 1})])
    after = _stream(texts, [(2, "token refresh", {"m2": 1})])     # m2 is written after the query
    for ranker in ("oracle-hybrid", "galaxybrain", "rrf"):
        assert evaluate(before, SEED, ranker) > 0.5
        assert evaluate(after, SEED, ranker) == 0.0


def test_fit_prints_every_stage_and_the_default_ranker():
    texts = [f"change {i} in src/mod{i % 3}.py token {'refresh' if i % 2 else 'cache'}" for i in range(12)]
    st = _stream(texts, [(6, "token refresh src/mod1.py", {"m1": 2, "m3": 1}), (12, "cache", {"m10": 1})])
    out = io.StringIO()
    params, rerank, best = fit([st], out)
    text = out.getvalue()
    for title in ("BM25 k1 x b", "vector weight", "expansion", "recency prior", "corpus stop words",
                  "semantic re-rank", "default ranker"):
        assert title in text
    assert best in ("galaxybrain", "oracle-hybrid", "rrf") and f"chosen (reference/lexical/params.py TUNED): {params}" in text
