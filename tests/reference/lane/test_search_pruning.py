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
    return [[(h.id, h.score, h.feedback_factor) for h in lane.search(q, filters=filters, top_k=top_k).hits]
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
