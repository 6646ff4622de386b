"""Feedback persistence, its effect on ranking and its metadata mirror (seed 004 Phase 5)."""
from __future__ import annotations

import pytest

from reference.clock import LogicalClock
from reference.errors import NotFound
from reference.lane import MemoryLane
from reference.lane.errors import LaneError
from reference.store import MemoryStore

TEXT = "Roll back a failed deploy by re-pointing the release symlink, then restart the workers."


def _pair(lane, top, second, entity):
    a = lane.store(TEXT, memory_type=top, paths=[f"src/features/{entity}/index.ts"])
    b = lane.store(TEXT, memory_type=second, paths=[f"src/features/{entity}/index.ts"])
    return a.id, b.id


def test_harmful_drops_below_and_helpful_rises_above(tmp_path):
    with MemoryStore.open(tmp_path, clock=LogicalClock(1.0)) as store:
        lane = MemoryLane.for_store(store)
        corr, learn = _pair(lane, "correction", "learning", "deploy")
        # identical text: equal cosines, so only weight x feedback orders them (1.0 vs 0.7, then 0.5 vs 0.7)
        assert lane.find("deploy roll back the release", top_k=5).ids == [corr, learn]
        state = lane.feedback(corr, "harmful")
        assert (state.helpful, state.harmful, state.state, state.factor) == (0, 1, "harmful", 0.5)
        assert lane.find("deploy roll back the release", top_k=5).ids == [learn, corr]
        corr2, dec = _pair(lane, "correction", "decision", "reports")
        assert lane.find("reports roll back the release", top_k=5).ids == [corr2, dec]        # 1.0 > 0.95
        lane.feedback(dec, "helpful")
        assert lane.find("reports roll back the release", top_k=5).ids == [dec, corr2]        # 1.045 > 1.0


def test_feedback_persists_and_is_mirrored_in_metadata(tmp_path):
    with MemoryStore.open(tmp_path, clock=LogicalClock(1.0)) as store:
        lane = MemoryLane.for_store(store)
        mid = lane.store("x marks the spot", memory_type="learning").id
        lane.feedback(mid, "helpful")
        lane.feedback(mid, "harmful")
        lane.feedback(mid, "harmful")
        meta = store.get_memory(mid).metadata
        assert (meta["feedback_count"], meta["feedback_score"]) == (3, 0.7)
    with MemoryStore.open(tmp_path, clock=LogicalClock(2.0)) as store:
        state = MemoryLane.for_store(store).feedback_state(mid)
        assert (state.helpful, state.harmful, state.factor) == (1, 2, 0.7)


def test_feedback_errors_write_nothing(tmp_path):
    with MemoryStore.open(tmp_path, clock=LogicalClock(1.0)) as store:
        lane = MemoryLane.for_store(store)
        mid = lane.store("some memory", memory_type="learning").id
        with pytest.raises(LaneError, match="helpful, harmful"):
            lane.feedback(mid, "great")
        with pytest.raises(NotFound):
            lane.feedback("mem:00000000", "helpful")
        assert lane.feedback_state(mid).helpful == 0
        assert store.tracker.conn().execute("SELECT count(*) FROM lane_feedback").fetchone()[0] == 0


def test_delete_drops_feedback_and_recalls(tmp_path):
    with MemoryStore.open(tmp_path, clock=LogicalClock(1.0)) as store:
        lane = MemoryLane.for_store(store)
        mid = lane.store("the deploy symlink trick", memory_type="learning", entities=["feature:ops"]).id
        lane.feedback(mid, "helpful")
        assert lane.inject("ops deploy symlink", "s1").memory_ids == (mid,)
        assert store.delete_memory(mid)
        conn = store.tracker.conn()
        assert conn.execute("SELECT count(*) FROM lane_feedback").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM lane_recalls").fetchone()[0] == 0
        assert lane.known_entities() == []
