"""Writing Memory Lane memories: metadata packing, typing, entity extraction, errors, one lane per store."""
from __future__ import annotations

import pytest

from reference.clock import LogicalClock
from reference.lane import MemoryLane
from reference.lane.errors import LaneError
from reference.lane.metadata import read
from reference.store import MemoryStore


@pytest.fixture
def store(tmp_path):
    with MemoryStore.open(tmp_path, clock=LogicalClock(1_700_000_000.0)) as s:
        yield s


def test_metadata_is_packed_as_seed_004_section_4_1(store):
    lane = MemoryLane.for_store(store)
    e = lane.store("Never mix npm lockfiles into project:atlas; see src/features/auth/README.md",
                   paths=["src/billing/x.py"], entities=["agent:BlueLake"], tags=["pnpm"], confidence=85,
                   metadata={"branch": "main"})
    assert store.get_memory(e.id).metadata == {
        "branch": "main", "collection": "memory-lane", "confidence_score": 85, "lane_version": "1",
        "memory_type": "commitment",   # "never" -> commitment
        "entity_slugs": ["agent:blue-lake", "feature:auth", "feature:billing", "project:atlas"]}
    assert e.tags == ("pnpm",)
    assert lane.known_entities() == ["agent:blue-lake", "feature:auth", "feature:billing", "project:atlas"]


def test_given_type_wins_over_classification(store):
    e = MemoryLane.for_store(store).store("We decided on Postgres", memory_type="gap")
    assert e.metadata["memory_type"] == "gap" and e.metadata["entity_slugs"] == []


@pytest.mark.parametrize("kwargs,match", [
    ({"text": ""}, "text"), ({"text": "x", "memory_type": "rumour"}, "rumour"),
    ({"text": "x", "entities": ["auth"]}, "type:name"), ({"text": "x", "entities": "feature:auth"}, "list"),
    ({"text": "x", "paths": "src/a/b.py"}, "list"), ({"text": "x", "confidence": 101}, "confidence"),
])
def test_bad_input_writes_nothing(store, kwargs, match):
    with pytest.raises(LaneError, match=match):
        MemoryLane.for_store(store).store(**kwargs)
    assert store.tracker.counts()["memories"] == 0


def test_one_lane_per_store_and_tables_exist(store):
    lane = MemoryLane.for_store(store)
    assert MemoryLane.for_store(store) is lane and store.extensions["lane"] is lane
    tables = {r[0] for r in store.tracker.conn().execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"lane_feedback", "lane_recalls"} <= tables


def test_known_entities_follow_writes_deletes_and_metadata_updates(store):
    """The cache is keyed on the memories revision: a slug set in place by `update_metadata` is seen at once
    (with the count and write counter it was not seen until the next write)."""
    lane = MemoryLane.for_store(store)
    a = lane.store("billing rounding", entities=["feature:billing"])
    assert lane.known_entities() == ["feature:billing"]
    store.update_metadata(a.id, {"entity_slugs": ["feature:invoices"]})
    assert lane.known_entities() == ["feature:invoices"]
    b = lane.store("auth tokens", entities=["feature:auth"])
    assert lane.known_entities() == ["feature:auth", "feature:invoices"]
    store.delete_memory(b.id)
    assert lane.known_entities() == ["feature:invoices"]


def test_foreign_metadata_reads_leniently():
    assert read({}).memory_type.value == "learning" and read({}).entity_slugs == ()
    assert read({"memory_type": "rumour", "entity_slugs": "feature:auth"}).memory_type.value == "learning"
    assert read({"memory_type": "gap", "entity_slugs": ["feature:auth", "Feature:Bad", 3]}).entity_slugs == ("feature:auth",)


def test_plain_memories_with_slugs_take_part(store):
    lane = MemoryLane.for_store(store)
    plain = store.write_memory("billing invoice rounding rules", metadata={"entity_slugs": ["feature:billing"],
                                                                           "memory_type": "decision"})
    assert lane.known_entities() == ["feature:billing"]
    got = lane.find("billing invoice rounding")
    assert got.mode == "entity" and got.ids == [plain.id] and got.hits[0].memory_type.value == "decision"


def test_same_operations_same_bytes(tmp_path):
    def run(path):
        with MemoryStore.open(path, clock=LogicalClock(5.0)) as s:
            lane = MemoryLane.for_store(s)
            a = lane.store("auth token refresh was wrong", paths=["src/features/auth/a.ts"])
            lane.feedback(a.id, "helpful")
            lane.inject("auth token", "s1")
        return (path / "blob.dat").read_bytes()
    assert run(tmp_path / "a") == run(tmp_path / "b")
