"""The label index answers every filter exactly as the SQL filter does, through writes, updates and deletes."""
from __future__ import annotations

import random

import numpy as np

from reference.clock import LogicalClock
from reference.store import MemoryStore
from reference.tracker import MemoryFilter

TASKS = ["task:debug", "task:refactor", None]
CONTEXTS = ["context:auth", "context:billing", "context:api"]
META_VALUES = ["main", "dev", 1, 1.0, True, None, ["main", "x"], {"a": "dev"}, []]


def _sql(store, flt):
    return np.array(sorted(store.tracker.memories.candidate_hashes(store.tracker.conn(), flt)), dtype=np.uint64)


def _filters(rng):
    for _ in range(60):
        meta = None
        if rng.random() < 0.5:
            meta = {rng.choice(["branch", "other"]): rng.sample(["main", "dev", 1, True, None, "x"], rng.randint(0, 2))}
        yield MemoryFilter(task=rng.choice(TASKS), context=tuple(rng.sample(CONTEXTS, rng.randint(0, 2))),
                           tags=tuple(rng.sample(["p1", "p2"], rng.randint(0, 1))), where_metadata=meta)


def _check(store, rng):
    for flt in _filters(rng):
        assert np.array_equal(store.memories.candidates(flt), _sql(store, flt)), flt


def test_index_matches_sql_through_changes(tmp_path):
    rng = random.Random(3)
    clock = LogicalClock(1_700_000_000.0)
    store = MemoryStore.open(tmp_path, clock=clock)
    ids = []
    for i in range(120):
        clock.advance(1)
        meta = {"branch": rng.choice(META_VALUES)} if rng.random() < 0.8 else {}
        ids.append(store.write_memory(f"memory {i}", task=rng.choice(TASKS), context=rng.sample(CONTEXTS, rng.randint(0, 2)),
                                      tags=rng.sample(["p1", "p2"], rng.randint(0, 2)), metadata=meta).id)
    _check(store, rng)  # built from the table
    for mid in ids[:20]:
        store.update_metadata(mid, {"branch": rng.choice(META_VALUES), "other": "x"})
    for mid in ids[20:35]:
        store.delete_memory(mid)
    clock.advance(1)
    store.write_memory("late", task="task:debug", context=["context:auth"], metadata={"branch": "dev"})
    _check(store, rng)  # maintained by the writer's notes
    store.close()


def test_another_connections_write_triggers_rebuild(tmp_path):
    clock = LogicalClock(1_700_000_000.0)
    a = MemoryStore.open(tmp_path, clock=clock)
    a.write_memory("first", task="task:debug")
    flt = MemoryFilter(task="task:debug")
    assert len(a.memories.candidates(flt)) == 1
    b = MemoryStore.open(tmp_path, clock=clock)  # another process, as far as `a` can tell
    clock.advance(1)
    b.write_memory("second", task="task:debug")
    b.close()
    assert np.array_equal(a.memories.candidates(flt), _sql(a, flt))
    assert len(a.memories.candidates(flt)) == 2
    a.close()
