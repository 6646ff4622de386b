"""Memory Lane weighs only the best few candidates when a bound proves the rest cannot reach the top k;
the answer must equal weighing every candidate."""
from __future__ import annotations

import random

import pytest

from reference.clock import LogicalClock
from reference.lane import MemoryLane
from reference.lane.search import LaneSearch
from reference.lane.taxonomy import MemoryType
from reference.store import MemoryStore

WORDS = "auth token refresh cache billing invoice decided always never fixed deploy retry queue".split()
QUERIES = ["auth token", "we decided on billing", "always retry the queue", "fixed deploy cache", "invoice"]


@pytest.fixture(scope="module")
def lane(tmp_path_factory):
    store = MemoryStore.open(tmp_path_factory.mktemp("lane"), clock=LogicalClock(1_700_000_000.0))
    rng = random.Random(5)
    types = [t.value for t in MemoryType]
    store.write_memories([{"text": " ".join(rng.choices(WORDS, k=6)), "tags": [rng.choice(["p1", "p2"])],
                           "metadata": {"memory_type": rng.choice(types)}} for _ in range(600)])
    lane = MemoryLane.for_store(store)
    ids = [m.id for m in store.memories.list(store.memories.filter(), limit=600)]
    for mid in ids[:40]:
        lane.feedback(mid, rng.choice(["helpful", "harmful"]))
    yield lane
    store.close()


def _answers(lane, top_k, filters=None):
    """The cosine engine (LaneSearch: `find`, `inject`) with filters, as the ranker used it before hybrid.py."""
    return [[(h.id, h.score, h.feedback_factor)
             for h in lane.engine.run(q, lane.resolve(q), top_k=top_k, clarify=False, filters=filters).hits]
            for q in QUERIES]


@pytest.mark.parametrize("top_k", [1, 5, 20])
@pytest.mark.parametrize("filters", [None, {"tags": ["p1"]}])
def test_pruned_equals_weighing_everything(lane, monkeypatch, top_k, filters):
    calls = []
    real = LaneSearch._best_few

    def spy(self, *a):
        out = real(self, *a)
        calls.append(out is not None)
        return out

    monkeypatch.setattr(LaneSearch, "_best_few", spy)
    pruned = _answers(lane, top_k, filters)
    assert any(calls)  # the bound held for some query: the pruned path was taken
    monkeypatch.setattr(LaneSearch, "_best_few", lambda self, *a: None)
    assert pruned == _answers(lane, top_k, filters)


def test_bound_uses_only_the_types_stored(tmp_path, monkeypatch):
    """Untyped memories plus a few decisions: the bound weighs decisions' weight, and the answer holds."""
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_700_000_000.0))
    rng = random.Random(9)
    recs = [{"text": " ".join(rng.choices(WORDS, k=6))} for _ in range(300)]
    recs += [{"text": "we decided billing auth", "metadata": {"memory_type": "decision"}} for _ in range(3)]
    store.write_memories(recs)
    lane = MemoryLane.for_store(store)
    calls = []
    real = LaneSearch._best_few
    monkeypatch.setattr(LaneSearch, "_best_few", lambda self, *a: calls.append(real(self, *a)) or calls[-1])
    pruned = _answers(lane, 10)
    assert any(c is not None for c in calls)
    monkeypatch.setattr(LaneSearch, "_best_few", lambda self, *a: None)
    assert pruned == _answers(lane, 10)
    store.close()


def _run(lane, search, top_k, exclude=(), filters=None):
    from reference.lane.resolver import Resolution
    return [[(h.id, h.score, h.similarity, h.feedback_factor)
             for h in search.run(q, Resolution(), top_k=top_k, exclude=exclude, clarify=False, filters=filters).hits]
            for q in QUERIES]


def _both_paths(lane, search, monkeypatch, top_k, exclude=(), filters=None):
    """The answer through the vector top-k (recording which way `_best_few` went) and through the
    full scan; asserts they are equal and returns what `_best_few` returned."""
    calls = []
    real = LaneSearch._best_few
    monkeypatch.setattr(LaneSearch, "_best_few", lambda self, *a: calls.append(real(self, *a)) or calls[-1])
    fast = _run(lane, search, top_k, exclude, filters)
    monkeypatch.setattr(LaneSearch, "_best_few", lambda self, *a: None)
    assert fast == _run(lane, search, top_k, exclude, filters)
    monkeypatch.setattr(LaneSearch, "_best_few", real)
    return calls


@pytest.mark.parametrize("semantic", [0.0, 0.3, 0.6, 0.95])
@pytest.mark.parametrize("top_k", [1, 5, 200])
def test_floor_inside_the_top_k_answers_as_the_full_scan(lane, monkeypatch, semantic, top_k):
    """A floor that cuts inside the few asked for (every passing candidate is among them), one that
    cuts below them, none (0.0), and a top_k near the store's size (the cache returns everything)."""
    from reference.lane.scoring import Floors
    search = LaneSearch(lane.engine.store, Floors(semantic=semantic, entity=0.5), lane.engine.feedback)
    calls = _both_paths(lane, search, monkeypatch, top_k)
    assert any(c is not None for c in calls)


def test_excluded_memories_are_replaced_by_the_next_best(lane, monkeypatch):
    """Excluding the best hits (as a session's injected memories are) asks the cache for as many more."""
    from reference.lane.scoring import Floors
    search = LaneSearch(lane.engine.store, Floors(semantic=0.0, entity=0.5), lane.engine.feedback)
    best = [ids[0][0] for ids in _run(lane, search, 10)] + [ids[1][0] for ids in _run(lane, search, 10)]
    for filters in (None, {"tags": ["p2"]}):
        calls = _both_paths(lane, search, monkeypatch, 10, exclude=set(best), filters=filters)
        assert any(c is not None for c in calls)
        for q_hits in _run(lane, search, 10, set(best), filters):
            assert not {h[0] for h in q_hits} & set(best)


def test_writes_between_queries_and_a_bound_that_fails(tmp_path, monkeypatch):
    """New memories, changed types and new feedback between queries; a store of near-duplicates with one
    heavily weighted type, where the bound cannot hold and the full scan answers."""
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_700_000_000.0))
    rng = random.Random(11)
    store.write_memories([{"text": " ".join(rng.choices(WORDS, k=6))} for _ in range(250)])
    lane = MemoryLane.for_store(store)
    from reference.lane.scoring import Floors
    search = LaneSearch(store, Floors(semantic=0.0, entity=0.5), lane.engine.feedback)
    for step in range(4):
        _both_paths(lane, search, monkeypatch, 5)
        new = store.write_memories([{"text": " ".join(rng.choices(WORDS, k=6)),
                                     "metadata": {"memory_type": "decision"}} for _ in range(20)])
        lane.feedback(new[0].id, "helpful")
        store.update_metadata(new[1].id, {"memory_type": "gotcha"})
    # identical texts: every cosine ties, so the few's lowest cosine equals the k-th's and the bound fails
    store.write_memories([{"text": "auth token refresh", "metadata": {"memory_type": "decision"}}
                          for _ in range(120)])
    calls = _both_paths(lane, search, monkeypatch, 5)
    assert any(c is None for c in calls)
    store.close()
