"""bench.calibration.lexical: a query sees only the memories written before it; the fit prints its choices."""
from __future__ import annotations

import io

from bench.calibration.lexical import Stream, evaluate, fit
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
    params, rerank, best, moment = fit([st], out)
    text = out.getvalue()
    for title in ("BM25 k1 x b", "vector weight", "expansion", "files the query names", "recency prior",
                  "write moment", "corpus stop words", "fusion weights jointly, prior multiply",
                  "fusion weights jointly, prior add", "recency form", "semantic re-rank", "default ranker"):
        assert title in text
    assert best in ("galaxybrain", "oracle-hybrid", "rrf") and f"chosen (reference/lexical/params.py TUNED): {params}; MOMENT {moment:g}" in text


def test_the_fusion_stage_scores_exactly_what_the_pipeline_ranks():
    """`fused_ndcg` over cached parts gives `evaluate`'s figure for the same params (the joint fit is honest)."""
    from bench.calibration.lexical import fused_ndcg, parts_of
    from reference.lexical.params import TUNED
    texts = [f"change {i} in src/mod{i % 3}.py token {'refresh' if i % 2 else 'cache'}" for i in range(12)]
    st = _stream(texts, [(6, "token refresh mod1", {"m1": 2, "m3": 1}), (12, "cache", {"m10": 1}),
                         (9, "mod2 change", {"m5": 1, "m8": 2})])
    for form in ("add", "multiply"):
        for p in (TUNED, TUNED.with_(named_top=3, named_weight=1.0, recency_weight=0.5, recency_scale=2.0)):
            p = p.with_(recency_form=form)
            assert fused_ndcg([parts_of(st, p)], p)[0] == evaluate(st, p)


def test_the_forms_are_scored_differently_and_a_tie_between_them_goes_to_the_seeds_form():
    """The cached replay follows the form (a heavy added prior reorders a batch the multiplied one keeps), and
    the form stage keeps seed 001's multiplied prior unless the added one wins by more than one query's share."""
    from bench.calibration.lexical import fit_fusion, fused_ndcg, parts_of
    from reference.lexical.params import TUNED
    texts = ["billing invoice rounding", "docs typo", "release notes", "auth token expiry", "onboarding token expiry"]
    st = _stream(texts, [(5, "auth token", {"m3": 1})])
    st.times = [3600.0 * i for i in range(5)]     # five moments
    st.commits = [True] * 5     # the forms differ on commits (the histories the stage fits on)
    p = TUNED.with_(vector_weight=0.0, recency_weight=2.0, recency_scale=1.0)
    cached = [parts_of(st, p, moment=600.0)]
    assert fused_ndcg(cached, p.with_(recency_form="multiply"))[0] == 1.0
    assert fused_ndcg(cached, p.with_(recency_form="add"))[0] < 1.0
    st.commits = [False] * 5    # a note's prior scales its first stage in either form (`note_prior` "first")
    notes = [parts_of(st, p, moment=600.0)]
    assert fused_ndcg(notes, p.with_(recency_form="add"))[0] == fused_ndcg(notes, p)[0] == 1.0
    out = io.StringIO()
    chosen = fit_fusion([st], p.with_(recency_form="add"), 1.0, out, moment=600.0)   # every gain a tie
    assert chosen.recency_form == "multiply" and "## recency form" in out.getvalue()
