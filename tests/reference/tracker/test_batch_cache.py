"""A batch write runs with a larger page cache, gives it back afterwards, and stores the same bytes."""
from __future__ import annotations

import random

import pytest

from reference.clock import LogicalClock
from reference.knowledge import KnowledgeLayer
from reference.store import MemoryStore
from reference.tracker import batch_cache

WORDS = "token refresh race cache redis invoice rounding retry timeout session upload deploy".split()


def _records(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    return [dict(text=" ".join(rng.choice(WORDS) for _ in range(8)) + f" in lib/m{rng.randrange(9)}.py")
            for _ in range(n)]


def _cache_size(store: MemoryStore) -> int:
    return store.tracker.conn().execute("PRAGMA cache_size").fetchone()[0]


def test_cache_is_raised_during_the_batch_and_restored_after(tmp_path):
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_760_000_000.0))
    before = _cache_size(store)
    seen: list[int] = []
    store.add_write_listener(lambda e: None, batch=lambda entries: seen.append(_cache_size(store)))
    store.write_memories(_records(batch_cache.MIN_ROWS, 1))
    store.write_memories(_records(batch_cache.MIN_ROWS - 1, 2))
    store.write_memory("one more")
    assert seen == [-batch_cache.BATCH_CACHE_KIB, before, before]
    assert _cache_size(store) == before
    store.close()


def test_cache_is_restored_when_the_batch_fails(tmp_path):
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_760_000_000.0))
    before = _cache_size(store)

    def boom(entries):
        raise RuntimeError("layer failed")
    store.add_write_listener(lambda e: None, batch=boom)
    with pytest.raises(RuntimeError):
        store.write_memories(_records(batch_cache.MIN_ROWS, 3))
    assert _cache_size(store) == before
    assert store.list_memories() == []
    store.close()


def test_a_cache_already_as_large_is_left_alone(tmp_path):
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_760_000_000.0))
    store.tracker.conn().execute("PRAGMA cache_size=-200000")
    store.write_memories(_records(batch_cache.MIN_ROWS, 4))
    assert _cache_size(store) == -200000
    store.close()


def _dump(path, monkeypatch, min_rows: int) -> list[str]:
    monkeypatch.setattr(batch_cache, "MIN_ROWS", min_rows)
    store = MemoryStore.open(path, clock=LogicalClock(1_760_000_000.0))
    KnowledgeLayer.for_store(store)
    store.tracker.conn().execute("PRAGMA cache_size=20")   # tiny: the default path spills pages mid-batch
    for k in range(3):
        store.clock.advance(60)
        store.write_memories(_records(300, 10 + k))
    rows = list(store.tracker.conn().iterdump())
    store.close()
    return rows


def test_same_rows_with_and_without_the_larger_cache(tmp_path, monkeypatch):
    small = _dump(tmp_path / "small", monkeypatch, 10**9)
    large = _dump(tmp_path / "large", monkeypatch, 1)
    assert sum("INSERT INTO \"relationships\"" in line for line in large) > 1000   # the b-trees the cache is for
    assert small == large
