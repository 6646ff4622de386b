"""Memory Lane's ranker mode (hybrid.py): keyword evidence, shared files, recency, working paths, factors."""
from __future__ import annotations

import pytest

from reference.clock import LogicalClock
from reference.lane import MemoryLane
from reference.lane.hybrid import LANE
from reference.lane.paths import check_paths
from reference.rankers import Query, make_ranker
from reference.store import MemoryStore


@pytest.fixture
def store(tmp_path):
    clock = LogicalClock(1_700_000_000.0)
    with MemoryStore.open(tmp_path, clock=clock) as s:
        yield s


def _write(store, text, files=(), **kw):
    store.clock.advance(60)
    return store.write_memory(text, metadata={"files_changed": list(files)} if files else None, **kw).id


def test_a_keyword_match_is_found_even_below_the_semantic_floor(store):
    """The seed-style cosine floor alone dropped this memory (nothing came back); bm25 vouches for it."""
    filler = " ".join(f"word{i}" for i in range(80))   # dilutes the hashed vector: a low cosine
    target = _write(store, f"Fix upsert_all when the key is compound. {filler}")
    for i in range(30):
        _write(store, f"unrelated note number {i} about release chores and documentation wording")
    lane = MemoryLane.for_store(store)
    q = "upsert_all compound"
    assert lane.find(q).ids == []                                # the tool keeps the seed's cosine floor
    assert lane.search(q).ids[:1] == [target]


def _commit(store, text, files):
    """A memory as history memories are written: the files in its text and in `files_changed`."""
    return _write(store, f"{text}\n\nFiles changed: {', '.join(files)}", files=files)


def test_a_memory_sharing_files_with_the_best_hit_outranks_an_unrelated_one(store):
    best = _commit(store, "rename the column helper", ["pkg/transform.py"])
    sibling = _commit(store, "speed up the loop", ["pkg/transform.py"])
    stranger = _commit(store, "speed up the loop", ["pkg/other.py"])
    for i in range(40):   # other files, so that transform.py is not a common one
        _commit(store, f"chore {i}", [f"misc/f{i}.py"])
    lane = MemoryLane.for_store(store)
    ids = lane.search("column helper speed loop", top_k=5).ids
    assert ids[0] == best and ids.index(sibling) < ids.index(stranger)
    lane.hybrid.params = LANE.with_(expand_weight=0.0)    # no expansion: the newer stranger leads
    ids = lane.search("column helper speed loop", top_k=5).ids
    assert ids.index(stranger) < ids.index(sibling)


def test_the_recency_prior_orders_equal_texts_newest_first(store):
    old = _write(store, "flaky retry in the upload worker")
    for i in range(20):
        _write(store, f"chore {i}")
    new = _write(store, "flaky retry in the upload worker")
    lane = MemoryLane.for_store(store)
    assert lane.search("flaky retry upload", top_k=2).ids == [new, old]
    lane.hybrid.params = LANE.with_(recency_weight=0.0)
    assert lane.search("flaky retry upload", top_k=2).ids == sorted([new, old])   # no prior: a tie, by id


@pytest.mark.parametrize("commit", [False, True])
def test_among_one_features_notes_the_match_wins_over_the_newest(store, commit):
    """Notes (no `files_changed`) of one feature all name its file, so the expansion parts are alike for all of
    them: with the prior joined to the whole sum the newest note leads, with the lexical ranking's `note_prior`
    (the prior scales a note's first stage) the note the question is about. Commits keep the whole-sum prior."""
    feature = "src/features/billing/stripe_webhook.ts"
    texts = [f"Fixed a duplicate charge in stripeWebhook.handle() ({feature}): the webhook was delivered twice.",
             *(f"Unrelated note {i} about the release process" for i in range(30)),
             f"Billing: the webhook signature tolerance is 300 seconds, set in {feature}.",
             f"Billing: we raised the webhook signature tolerance after the incident; {feature} reads it."]
    ids = []
    for text in texts:
        store.clock.advance(3600)    # one write moment each (`MOMENT`): each note a tick older than the next
        ids.append(store.write_memory(text, metadata={"files_changed": [feature]} if commit else None).id)
    lane = MemoryLane.for_store(store)
    question = "what caused the duplicate charge in billing?"
    assert LANE.note_prior == "first" and lane.search(question, top_k=3).ids[0] == ids[-1 if commit else 0]
    lane.hybrid.params = LANE.with_(note_prior="sum")
    assert lane.search(question, top_k=3).ids[0] == ids[-1]


def test_working_paths_put_the_memories_that_touched_them_first(store):
    near = _write(store, "small tweak", files=["src/auth/session.py"])
    far = [_write(store, f"session cookie tweak number {i}", files=[f"web/v{i}.py"]) for i in range(12)]
    ranker = make_ranker("memory-lane", store)
    plain = [h.id for h in ranker.search(Query("session cookie tweak", top_k=10))]
    assert near not in plain                                      # nothing in its text ranks it
    with_paths = ranker.search(Query("session cookie tweak", top_k=10, paths=("src/auth/session.py",)))
    assert with_paths[0].id == near and [h.id for h in with_paths[1:]] == plain[:9]
    assert set(plain) <= set(far)


def test_working_paths_imply_seed_slugs_too(store):
    lane = MemoryLane.for_store(store)
    tagged = lane.store("billing note without files", entities=["feature:billing"]).id
    for i in range(5):
        _write(store, f"billing note {i}")
    assert lane.search("billing note", paths=["src/billing/invoice.py"]).ids[0] == tagged


def test_type_weight_intent_and_feedback_still_multiply_the_relevance(store):
    lane = MemoryLane.for_store(store)
    corr = lane.store("the cache key was wrong for uploads", memory_type="correction").id
    learn = lane.store("the cache key was wrong for uploads", memory_type="learning").id
    hits = make_ranker("memory-lane", store).search(Query("what mistake did we make with the cache key?"))
    by_id = {h.id: h for h in hits}
    c, l = by_id[corr], by_id[learn]
    assert c.meta["intent_boost"] == 1.15 and l.meta["intent_boost"] == 1.0
    assert c.score == pytest.approx(c.meta["relevance"] * 1.0 * 1.15)
    assert l.score == pytest.approx(l.meta["relevance"] * 0.70)
    lane.feedback(learn, "harmful")
    l2 = {h.id: h for h in make_ranker("memory-lane", store).search(Query("cache key uploads"))}[learn]
    assert l2.score == pytest.approx(l2.meta["relevance"] * 0.70 * 0.5)


def test_paths_are_checked_with_a_clear_error():
    assert check_paths(["a.py", "a.py", " b.py "]) == ("a.py", "b.py")
    for bad in ("a.py", [""], [3]):
        with pytest.raises(ValueError, match="paths"):
            check_paths(bad)


def test_seed_defaults_rank_by_cosine_alone(tmp_path):
    """`reference:<ranker>+seed-defaults` shows the seed's own design: the keyword-only match is dropped again."""
    from reference.tuning import SEED_DEFAULTS, use_tuning
    with MemoryStore.open(tmp_path, clock=LogicalClock(1_700_000_000.0)) as s:
        use_tuning(s, SEED_DEFAULTS)
        filler = " ".join(f"word{i}" for i in range(80))
        _write(s, f"Fix upsert_all when the key is compound. {filler}")
        lane = MemoryLane.for_store(s)
        assert lane.search("upsert_all compound").ids == [] and lane.search("upsert_all compound").floor == 0.5


def test_a_hit_reports_its_cosine_even_outside_the_vector_pool(store):
    target = _write(store, "Fix upsert_all when the key is compound")
    lane = MemoryLane.for_store(store)
    hit = lane.search("upsert_all compound", top_k=1).hits[0]
    qvec, key = store.memories.embed_query("upsert_all compound"), store.tracker.hash_fn(target)
    assert hit.id == target and hit.similarity == pytest.approx(float(store.memories.vectors.scores(qvec, [key])[0]))
    lane.hybrid.params = LANE.with_(vector_weight=0.0)    # no vector pool at all: still the real cosine
    assert lane.search("upsert_all compound", top_k=1).hits[0].similarity == pytest.approx(hit.similarity)
    assert hit.similarity > 0
