"""Memory Lane search against the plain model in lane_model.py: entity filter, floors, weights, intent, feedback."""
from __future__ import annotations

import random

import pytest

from reference.clock import LogicalClock
from reference.embed import HashingEmbedder
from reference.lane import MemoryLane
from reference.store import MemoryStore

import lane_model

WORDS = ("token refresh session cookie retry backoff cache schema migration rollback index query latency logging "
         "redact webhook signature invoice rounding upload presign deploy symlink worker queue timeout flaky fixture "
         "mistake decided usually wrong chose error").split()
FEATURES = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"]
TYPES = list(lane_model.WEIGHTS)
SEMANTIC_FLOOR, ENTITY_FLOOR = 0.25, 0.20   # bench/calibration/knowledge.py on the calibration split (hashing-v1)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    rng = random.Random(11)
    clock = LogicalClock(1_700_000_000.0)
    store = MemoryStore.open(tmp_path_factory.mktemp("lane"), clock=clock)
    lane = MemoryLane.for_store(store)
    mems = []
    for i in range(160):
        clock.advance(1)
        text = " ".join(rng.sample(WORDS, rng.randint(3, 8))) + f" n{i}"
        mtype, feat = rng.choice(TYPES), rng.choice(FEATURES)
        e = lane.store(text, memory_type=mtype, entities=[f"feature:{feat}"])
        mems.append({"id": e.id, "text": text, "type": mtype, "slugs": [f"feature:{feat}"]})
    votes = {}
    for m in rng.sample(mems, 30):
        signals = rng.choice([["helpful"], ["harmful"], ["helpful", "harmful", "harmful"], ["helpful", "helpful"]])
        for s in signals:
            lane.feedback(m["id"], s)
        votes[m["id"]] = (signals.count("helpful"), signals.count("harmful"))
    yield store, lane, mems, votes
    store.close()


def _compare(got, want):
    assert [h.id for h in got] == [i for i, _ in want]
    assert [h.score for h in got] == pytest.approx([s for _, s in want], rel=1e-5)


@pytest.mark.parametrize("seed", range(12))
def test_semantic_search_matches_model(world, seed):
    store, lane, mems, votes = world
    rng = random.Random(seed)
    query = " ".join(rng.sample(WORDS, 3))
    for k in (1, 3, 10):
        got = lane.find(query, top_k=k)
        assert got.mode == "semantic" and got.floor == SEMANTIC_FLOOR
        _compare(got.hits, lane_model.rank(store.embedder, mems, query, None, SEMANTIC_FLOOR, votes, k))


@pytest.mark.parametrize("seed", range(12))
def test_entity_search_matches_model(world, seed):
    store, lane, mems, votes = world
    rng = random.Random(100 + seed)
    feat = rng.choice(FEATURES)
    query = f"{feat} " + " ".join(rng.sample(WORDS, 3))
    got = lane.find(query, top_k=5)
    assert got.mode == "entity" and got.entities == (f"feature:{feat}",) and got.floor == ENTITY_FLOOR
    _compare(got.hits, lane_model.rank(store.embedder, mems, query, {f"feature:{feat}"}, ENTITY_FLOOR, votes, 5))
    assert all(f"feature:{feat}" in h.entity_slugs for h in got.hits)


def test_explicit_entities_override_the_resolver(world):
    store, lane, mems, votes = world
    got = lane.find("alpha token refresh", entities=["feature:bravo"], top_k=10)
    assert got.entities == ("feature:bravo",)
    _compare(got.hits, lane_model.rank(store.embedder, mems, "alpha token refresh", {"feature:bravo"},
                                       ENTITY_FLOOR, votes, 10))


def test_structured_filter_drops_the_floor(world):
    store, lane, mems, votes = world
    tagged = store.write_memory("completely unrelated words about gardening tulips", tags=["garden"])
    got = lane.search("token refresh cache", filters={"tags": ["garden"]}, top_k=5)
    assert got.floor is None and [h.id for h in got.hits] == [tagged.id]   # cosine ~0 yet kept: the caller filtered
    assert got.hits[0].memory_type.value == "learning"                     # no lane fields: read as learning
    assert lane.find("token refresh cache gardening tulips", top_k=50).floor == SEMANTIC_FLOOR
    store.delete_memory(tagged.id)


def test_factors_are_reported(world):
    _, lane, mems, votes = world
    voted = next(m for m in mems if votes.get(m["id"]) == (0, 1))
    hit = next((h for h in lane.find(voted["text"], top_k=200).hits if h.id == voted["id"]), None)
    assert hit is not None and hit.feedback_factor == 0.5 and hit.type_weight == lane_model.WEIGHTS[voted["type"]]
    assert hit.score == pytest.approx(hit.similarity * hit.type_weight * hit.intent_boost * 0.5)


def test_bad_arguments(world):
    _, lane, _, _ = world
    from reference.lane.errors import LaneError
    for bad in ("", "   ", None):
        with pytest.raises(LaneError):
            lane.find(bad)
    with pytest.raises(LaneError):
        lane.find("x", top_k=-1)
    with pytest.raises(LaneError):
        lane.find("x", entities=["nope"])
    assert lane.find("token", top_k=0).hits == ()


def test_a_deep_candidate_with_a_high_weight_is_found(tmp_path):
    """40 gap memories (weight 0.4) outscore a correction (1.0) on cosine; re-ranking must reach past them."""
    with MemoryStore.open(tmp_path, clock=LogicalClock(1.0)) as store:
        lane = MemoryLane.for_store(store)
        for i in range(40):
            lane.store("rollback the deploy symlink then restart workers", memory_type="gap", entities=["feature:ops"])
        fix = lane.store("rollback the deploy symlink then restart workers, checking the queue",
                         memory_type="correction", entities=["feature:ops"])
        cos = [h.score for h in store.search_memories("rollback the deploy symlink then restart workers", top_k=41)]
        assert cos[-1] < cos[0] and cos[-1] > 0.4 * cos[0]          # the premise: ranked last by cosine alone
        top = lane.find("rollback the deploy symlink then restart workers", top_k=1).hits
        assert [h.id for h in top] == [fix.id]
