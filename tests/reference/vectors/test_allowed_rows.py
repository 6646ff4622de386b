"""VectorCache keeps the rows of a read-only `allowed` array (the filter index's answer) until rows change."""
from __future__ import annotations

import numpy as np

from reference.vectors import VectorCache

DIM = 4


def _frozen(keys) -> np.ndarray:
    arr = np.asarray(sorted(keys), dtype=np.uint64)
    arr.setflags(write=False)
    return arr


def _brute(cache: VectorCache, q: np.ndarray, allowed: np.ndarray) -> list[int]:
    live = [int(k) for k in cache.keys() if int(k) in set(allowed.tolist())]
    return sorted(live, key=lambda k: (-float(cache.get(k) @ (q / np.linalg.norm(q))), k))


def test_same_allowed_array_follows_puts_and_removes(tmp_path):
    rng = np.random.default_rng(7)
    cache = VectorCache(tmp_path, DIM)
    for k in range(1, 21):
        cache.put(k, rng.standard_normal(DIM).astype(np.float32))
    allowed = _frozen([2, 3, 5, 7, 11, 13, 17, 19, 23])   # 23 has no row yet
    q = rng.standard_normal(DIM).astype(np.float32)
    assert [k for k, _ in cache.topk(q, 20, allowed)] == _brute(cache, q, allowed)
    assert cache.topk(q, 20, allowed) == cache.topk(q, 20, allowed)     # the kept rows answer the same

    cache.remove(7)
    cache.put(23, q)                      # an allowed key gains a row: it must be found, and first
    cache.put(3, -q)                      # a re-put moves the key to a new row
    got = [k for k, _ in cache.topk(q, 20, allowed)]
    assert got == _brute(cache, q, allowed)
    assert got[0] == 23 and got[-1] == 3 and 7 not in got


def test_writeable_allowed_arrays_are_not_kept(tmp_path):
    cache = VectorCache(tmp_path, DIM)
    for k in range(1, 6):
        cache.put(k, np.eye(DIM, dtype=np.float32)[k % DIM] + 0.1)
    allowed = np.asarray([1, 2], dtype=np.uint64)
    q = np.ones(DIM, dtype=np.float32)
    cache.topk(q, 5, allowed)
    allowed[:] = [4, 5]                   # a caller's own array may change in place
    assert sorted(k for k, _ in cache.topk(q, 5, allowed)) == [4, 5]


def test_filter_index_answers_are_read_only_and_shared(tmp_path):
    from reference.clock import LogicalClock
    from reference.store import MemoryStore
    store = MemoryStore.open(tmp_path / "s", clock=LogicalClock(1_700_000_000.0))
    try:
        for i in range(5):
            store.write_memory(text=f"note {i}", task="task:debug" if i % 2 else "task:refactor")
        flt = store.memories.filter("task:debug", [], [], [], None)
        a, b = store.memories.candidates(flt), store.memories.candidates(flt)
        assert a is b and not a.flags.writeable and a.size == 2
        store.write_memory(text="another", task="task:debug")
        assert store.memories.candidates(flt).size == 3
    finally:
        store.close()


def test_kept_matrix_of_a_small_filter_gives_the_gathered_scores_and_follows_writes(tmp_path):
    rng = np.random.default_rng(11)
    cache = VectorCache(tmp_path, DIM)
    for k in range(1, 61):
        cache.put(k, rng.standard_normal(DIM).astype(np.float32))
    allowed = _frozen([4, 9, 15, 22, 31, 40, 58, 70])   # 70 has no row yet; 7 rows of 60: the gather path
    q = rng.standard_normal(DIM).astype(np.float32)
    first = cache.topk(q, 5, allowed, with_ties=True)
    assert any(k and k[0] == "matrix" for k in cache._selections)          # the gathered rows were kept
    again = cache.topk(q, 5, allowed, with_ties=True)
    fresh = cache.topk(q, 5, np.array(allowed), with_ties=True)           # a writeable copy: gathered anew
    assert first == again == fresh                                        # same keys, same score bits
    assert [k for k, _ in cache.topk(q, 20, allowed)] == _brute(cache, q, allowed)

    cache.put(70, q)                      # a new row for an allowed key, and a re-put of a kept one
    cache.put(58, -q)
    got = cache.topk(q, 20, allowed)
    assert [k for k, _ in got] == _brute(cache, q, allowed)
    assert got[0][0] == 70 and got[-1][0] == 58


def test_kept_matrices_hold_at_most_the_cache_rows(tmp_path):
    rng = np.random.default_rng(12)
    cache = VectorCache(tmp_path, DIM)
    for k in range(1, 31):
        cache.put(k, rng.standard_normal(DIM).astype(np.float32))
    q = rng.standard_normal(DIM).astype(np.float32)
    filters = [_frozen(range(s, s + 9)) for s in range(1, 28, 3)]       # 9 rows each, 10 filters: 90 > 30
    for allowed in filters:
        assert [k for k, _ in cache.topk(q, 30, allowed)] == _brute(cache, q, allowed)
    held = [v[1].shape[0] for k, v in cache._selections.items() if k and k[0] == "matrix"]
    assert 0 < sum(held) <= 30 and len(held) < len(filters)
    for allowed in filters:               # evicted ones are gathered again, with the same answers
        assert [k for k, _ in cache.topk(q, 30, allowed)] == _brute(cache, q, allowed)


def test_kept_matrices_respect_the_byte_cap(tmp_path, monkeypatch):
    from reference.vectors import selection as vector_selection
    rng = np.random.default_rng(13)
    cache = VectorCache(tmp_path, DIM)
    for k in range(1, 61):
        cache.put(k, rng.standard_normal(DIM).astype(np.float32))
    monkeypatch.setattr(vector_selection, "KEPT_BYTES", 10 * DIM * 4)   # room for 10 rows
    q = rng.standard_normal(DIM).astype(np.float32)
    small, large = _frozen(range(1, 7)), _frozen(range(20, 35))          # 6 rows fit, 15 do not
    for allowed in (small, large, small, large):
        assert [k for k, _ in cache.topk(q, 60, allowed)] == _brute(cache, q, allowed)
    held = {id(v[0]): v[1].shape[0] for k, v in cache._selections.items() if k and k[0] == "matrix"}
    assert held == {id(small): 6}
