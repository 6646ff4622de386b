"""Expansion through shared files and the recency prior, against hand computation."""
from __future__ import annotations

import math

import numpy as np
import pytest

from reference.lexical.expansion import entity_seeds, expand
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
    assert entity_seeds(index, scores, top=1)[0] == pytest.approx({"src/auth.py": 2.0 * idf_auth})
    # m0 and m1 touched src/auth.py: both get its whole weight, normalised to 1; the others nothing
    assert expand(index, scores, top=1).tolist() == [1.0, 1.0, 0.0, 0.0]
    assert expand(index, scores, top=0).tolist() == [0.0] * 4
    # a seed row must be allowed: with m0 ruled out nothing scores, so nothing is expanded
    assert expand(index, scores, top=2, allowed=np.array([False, True, True, True])).tolist() == [0.0] * 4


def test_a_row_with_a_trace_of_evidence_passes_on_no_more_than_it_has():
    """The seeds' lead: when the best hit holds no file, the expansion is scaled by the best seeding row's score
    over the best hit's, so a weak row's files cannot outrank the note the query names."""
    index = LexicalIndex()
    index.add("n0", "Retry uploads with jitter")                          # no file
    index.add("n1", "The bug is in Files: src/auth/token.py")
    index.add("n2", "Another change Files: src/auth/token.py")
    scores = np.array([1.0, 0.01, 0.0])
    weights, lead = entity_seeds(index, scores, top=8)
    assert set(weights) == {"src/auth/token.py"} and lead == pytest.approx(0.01)
    assert expand(index, scores, top=8).tolist() == pytest.approx([0.0, 0.01, 0.01])
    # the best hit seeds: lead 1, every float as without it
    assert entity_seeds(index, np.array([0.0, 1.0, 0.5]), top=8)[1] == 1.0
    # the pipeline: "retry uploads jitter" names n0; n1 has only a trace of cosine (the two-note store where the
    # trace took the first place through its file's whole expansion weight)
    p = LexicalParams(k1=1.2, b=0.5, vector_weight=0.1, expand_top=8, expand_weight=2.0)
    s = hybrid_scores(index, "retry uploads jitter", p, vector=(np.array([0, 1]), np.array([0.9, 0.006])))
    assert [r for r, _ in top_rows(s, 3, index.ids)] == [0, 1, 2]
    assert s[1] < 0.01 and s[2] < 0.01


def test_recency_prior_over_the_write_order():
    got = recency_prior(5, 2.0)
    assert got.tolist() == pytest.approx([math.exp(-4 / 2), math.exp(-3 / 2), math.exp(-1), math.exp(-0.5), 1.0])
    assert recency_prior(3, 0.0).tolist() == [0.0, 0.0, 0.0]
    far = recency_prior(1000, 10.0)
    assert far[0] == 0.0 and far[-1] == 1.0   # beyond the horizon: 0


def test_pipeline_adds_the_parts_and_respects_the_filter():
    index = _index()
    p = LexicalParams(k1=1.2, b=0.5, vector_weight=0.0, expand_top=1, expand_weight=0.5,
                      recency_weight=0.1, recency_scale=1.0, recency_form="add")
    s = hybrid_scores(index, "token refresh", p)
    bm = index.bm25("token refresh", 1.2, 0.5)
    want = bm / bm.max() + 0.5 * np.array([1.0, 1.0, 0.0, 0.0])
    assert s == pytest.approx(want + 0.1 * recency_prior(4, 1.0) * (want > 0))  # the prior only where there is evidence
    # seed 001's form (the default): the same parts multiplied by 1 + weight x prior
    multiplied = hybrid_scores(index, "token refresh", p.with_(recency_form="multiply"))
    assert multiplied == pytest.approx(want * (1.0 + 0.1 * recency_prior(4, 1.0)))
    assert LexicalParams().recency_form == "multiply"
    assert [r for r, _ in top_rows(s, 2, index.ids)] == [0, 1]
    masked = hybrid_scores(index, "token refresh", p, allowed=np.array([False, True, True, True]))
    # m0, the only keyword hit, is filtered out: nothing else has evidence, so nothing is a hit
    assert masked[0] == -np.inf and top_rows(masked, 10, index.ids) == []


def test_named_files_expansion_lifts_the_memories_that_touched_the_file_a_query_names():
    """A query naming a module ("the cli") lifts every memory that touched sqlite_utils/cli.py by its file
    weight, above a memory that repeats another query word more often."""
    from reference.lexical.expansion import named_files, spread
    index = LexicalIndex()
    index.add("m0", "Add csv option Files changed: sqlite_utils/cli.py")
    index.add("m1", "print tables nicely: tables, more tables")
    index.add("m2", "Docs typo Files changed: docs/index.rst")
    named = named_files(index, "the cli should print tables", top=3)
    assert set(named) == {"sqlite_utils/cli.py"} and named["sqlite_utils/cli.py"] == 1.0
    assert spread(index, named, index.rows).tolist() == [1.0, 0.0, 0.0]
    p = LexicalParams(k1=1.2, b=0.5, vector_weight=0.0)
    assert [r for r, _ in top_rows(hybrid_scores(index, "cli tables", p), 10, index.ids)] == [1, 0]
    s = hybrid_scores(index, "cli tables", p.with_(named_top=3, named_weight=0.5))
    assert [r for r, _ in top_rows(s, 10, index.ids)] == [0, 1]


def test_recency_counts_write_moments_so_a_batch_written_at_once_keeps_its_keyword_order():
    """Memories written in one moment (less than `moment` seconds after its first write) are equally recent:
    the prior cannot reorder them (the synthetic `memory-lane` notes, a minute apart); rows written moments
    apart are ordered by the prior as before."""
    texts = ["auth session token refresh", "onboarding token"]
    p = LexicalParams(k1=1.2, b=0.5, vector_weight=0.0, recency_weight=2.0, recency_scale=1.0, recency_form="add")
    same, apart = LexicalIndex(moment=3600.0), LexicalIndex(moment=3600.0)
    for i, t in enumerate(texts):
        same.add(f"m{i}", t, 100.0 + 60 * i)
        apart.add(f"m{i}", t, 100.0 + 7200 * i)
    assert same.ticks().tolist() == [0, 0] and apart.ticks().tolist() == [0, 1]
    assert recency_prior(2, 1.0, same.ticks()).tolist() == [1.0, 1.0]
    q = "auth session token refresh"
    assert [r for r, _ in top_rows(hybrid_scores(same, q, p), 2, same.ids)] == [0, 1]
    assert [r for r, _ in top_rows(hybrid_scores(apart, q, p), 2, apart.ids)] == [1, 0]


def test_the_prior_orders_evidence_and_never_makes_an_unmatched_memory_a_hit():
    index = _index()
    for form in ("add", "multiply"):
        p = LexicalParams(k1=1.2, b=0.5, vector_weight=0.0, recency_weight=1.0, recency_scale=5.0, recency_form=form)
        s = hybrid_scores(index, "token refresh", p)
        assert s[0] > 0 and s[3] == 0.0      # m3, the newest, matched nothing: no prior, not a hit
        assert [r for r, _ in top_rows(s, 10, index.ids)] == [0]


def test_a_multiplied_prior_cannot_lift_a_newer_note_over_one_that_matches_another_query_word():
    """The synthetic `memory-lane` regression: a note matching "auth" and "token", written a moment before one
    matching "token" alone. Added at weight 2 the prior lifts the newer note over it; multiplied (seed 001's
    form) it scales each score by at most 1 + weight, which does not bridge a whole query word here."""
    index = LexicalIndex(moment=0.0)
    for i, t in enumerate(["billing invoice rounding", "docs typo", "release notes", "auth token expiry",
                           "onboarding token expiry"]):
        index.add(f"m{i}", t, 100.0 * i)
    q = "auth token"
    p = LexicalParams(k1=1.2, b=0.5, vector_weight=0.0, recency_weight=2.0, recency_scale=1.0)
    assert [r for r, _ in top_rows(hybrid_scores(index, q, p.with_(recency_form="add")), 5, index.ids)] == [4, 3]
    assert [r for r, _ in top_rows(hybrid_scores(index, q, p.with_(recency_form="multiply")), 5, index.ids)] == [3, 4]


def test_an_unknown_recency_form_is_refused():
    with pytest.raises(ValueError, match="recency_form"):
        LexicalParams(recency_form="max")


def test_a_moment_is_counted_from_its_first_write():
    index = LexicalIndex(moment=10.0)
    for i, t in enumerate((0.0, 4.0, 9.0, 12.0, 12.0, None, 13.0, 100.0)):
        index.add(f"m{i}", "x", t)
    assert index.ticks().tolist() == [0, 0, 0, 1, 1, 2, 3, 4]
    assert LexicalIndex(moment=0.0).ticks().tolist() == []
