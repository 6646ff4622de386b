"""Commits and notes: the index keeps which memories record their changed files, and `note_prior` scopes the
recency prior of a note to its first stage (reference/lexical/ranking.py)."""
from __future__ import annotations

import numpy as np
import pytest

from reference.clock import LogicalClock
from reference.lexical.index import BULK_MIN_DOCS, LexicalIndex
from reference.lexical.layer import LexicalLayer
from reference.lexical.params import TUNED, LexicalParams
from reference.lexical.ranking import fuse, hybrid_scores, top_rows, with_prior
from reference.lexical.recency import recency_prior
from reference.store import MemoryStore

FEATURE = "src/features/billing/stripe_webhook.ts"
NOTES = [  # one feature's notes, oldest first: the first matches the question, the later ones only name the feature
    f"Fixed a duplicate charge in stripeWebhook.handle() ({FEATURE}): the webhook was delivered twice.",
    f"Billing: the webhook signature tolerance is 300 seconds, set in {FEATURE}.",
    f"Billing: we raised the webhook signature tolerance after the incident; {FEATURE} reads it.",
]
QUESTION = "what caused the duplicate charge in billing?"


def _index(commit: bool) -> LexicalIndex:
    """The matching note, 30 notes on other things, then the feature's two newer notes (rows 0, 1-30, 31-32)."""
    index = LexicalIndex(moment=0.0)
    texts = [NOTES[0], *(f"Unrelated note {i} about the release process" for i in range(30)), *NOTES[1:]]
    for i, text in enumerate(texts):
        index.add(f"m{i:02d}", text, 1000.0 * i, commit=commit)
    return index


def test_the_index_keeps_which_rows_are_commits_one_at_a_time_and_in_bulk():
    index = LexicalIndex()
    index.add("a", "note text")
    index.add("b", "commit text", commit=True)
    small = index.add_many([("c", "x", None), ("d", "y", None)], [True, False])
    bulk = index.add_many([(f"e{i}", f"text {i}", None) for i in range(BULK_MIN_DOCS)],
                          [i % 3 == 0 for i in range(BULK_MIN_DOCS)])
    assert small == [2, 3] and bulk[0] == 4
    assert index.commits()[:4].tolist() == [False, True, True, False]
    assert index.commits()[4:].tolist() == [i % 3 == 0 for i in range(BULK_MIN_DOCS)]
    index.add_many([("f", "no flags given", None)])
    assert not index.commits()[-1]
    with pytest.raises(ValueError, match="2 commit flags for 1 documents"):
        index.add_many([("g", "z", None)], [True, False])


def test_a_notes_prior_scales_its_first_stage_and_a_commits_its_whole_score():
    rng = np.random.default_rng(7)
    first, shared, named = rng.random(40), rng.random(40), rng.random(40)
    commits = rng.random(40) < 0.5
    p = TUNED.with_(note_prior="first")
    prior = recency_prior(40, p.recency_scale, np.arange(40))
    got = fuse(first, shared, named, prior, p, commits=commits)
    whole = with_prior(first + p.expand_weight * shared + p.named_weight * named, prior, p)
    summed = first + p.expand_weight * shared + p.named_weight * named
    note = summed + (p.recency_weight * prior) * first      # the prior scales the first stage alone
    assert np.array_equal(got[commits], whole[commits]) and np.array_equal(got[~commits], note[~commits])
    assert np.array_equal(fuse(first, shared, named, prior, p, commits=np.zeros(40, dtype=bool)), note)
    # the seed's scope, and every row a commit, are the old fuse float for float
    assert np.array_equal(fuse(first, shared, named, prior, p.with_(note_prior="sum"), commits=commits), whole)
    assert np.array_equal(fuse(first, shared, named, prior, p, commits=np.ones(40, dtype=bool)), whole)
    assert np.array_equal(fuse(first, shared, named, prior, p), whole)
    # a tail prior (rows from `start` on) gives the same rows as the full one
    start = 25
    tail = fuse(first, shared, named, prior[start:], p, start=start, commits=commits)
    assert np.array_equal(tail[start:], got[start:])


def test_with_the_added_prior_a_note_still_scales_its_first_stage():
    """Memory Lane and project memory add the prior; a note's is the same first-stage boost in either form."""
    rng = np.random.default_rng(11)
    first, shared = rng.random(40), rng.random(40)
    first[::5] = 0.0      # a note found by the expansion alone gets no boost
    commits = rng.random(40) < 0.5
    p = TUNED.with_(recency_form="add", recency_weight=1.2, note_prior="first")
    prior = recency_prior(40, p.recency_scale, np.arange(40))
    summed = first + p.expand_weight * shared
    got = fuse(first, shared, None, prior, p, commits=commits)
    assert np.array_equal(got[commits], (summed + p.recency_weight * prior * (summed > 0))[commits])
    assert np.array_equal(got[~commits], (summed + (p.recency_weight * prior) * first)[~commits])
    assert np.array_equal(fuse(first, shared, None, prior, p.with_(note_prior="sum"), commits=commits),
                          with_prior(summed, prior, p))


def test_among_one_features_notes_the_match_wins_over_the_newest():
    """The `knowledge` scenario's failure: every note of a feature shares its files, so the expansion and
    named-file parts are alike for all of them; with the prior on the whole sum the newest overtakes the one the
    question is about, with the prior on a note's first stage it does not. Commits keep the whole-score prior."""
    notes = _index(commit=False)
    best = lambda index, p: top_rows(hybrid_scores(index, QUESTION, p), 3, index.ids)[0][0]   # noqa: E731
    assert best(notes, TUNED.with_(note_prior="sum", vector_weight=0.0)) == 32
    assert best(notes, TUNED.with_(note_prior="first", vector_weight=0.0)) == 0
    commits = _index(commit=True)
    assert best(commits, TUNED.with_(note_prior="first", vector_weight=0.0)) == 32


def test_the_layer_marks_a_memory_that_records_its_files_as_a_commit(tmp_path):
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_700_000_000.0))
    store.write_memory("a note naming src/app.py")
    store.write_memory("Fix the parser", metadata={"files_changed": ["src/parser.py"]})
    store.write_memory("an empty list records nothing", metadata={"files_changed": []})
    index = LexicalLayer.for_store(store).sync()
    flags = {index.ids[r]: bool(index.commits()[r]) for r in range(index.rows)}
    commit_id = next(e.id for e in store.list_memories(limit=10) if e.text == "Fix the parser")
    assert flags[commit_id] and sum(flags.values()) == 1 and len(flags) == 3
    store.close()


def test_an_unknown_note_prior_is_refused():
    with pytest.raises(ValueError, match="note_prior"):
        LexicalParams(note_prior="tail")
