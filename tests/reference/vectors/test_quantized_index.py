"""VectorCache above its index threshold (lowered here) answers as the exact path does.

Each check asks the same cache twice: with the quantized index (`index_min_rows` = 1)
and with the exact scan (`index_min_rows` huge), through re-puts, removes, tags,
`allowed` filters, ties, reopening and rows another handle appended. The stores hold
1,200-2,000 rows and the candidates are lowered to 50 (`MIN_CANDIDATES`), a small
fraction of them.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference.vectors import index as vector_index
from reference.vectors import rows as vector_rows
from reference.vectors import VectorCache

DIM = 16
EXACT = 10 ** 12
FORCED = 1_000   # the index threshold here: every store below has more rows; the first 1,000 train it


@pytest.fixture(autouse=True)
def few_candidates(monkeypatch):
    monkeypatch.setattr(vector_index, "MIN_CANDIDATES", 50)


def _both(cache: VectorCache, fn):
    """(answer with the index, answer with the exact scan), and whether the index was used."""
    used = []
    real = cache._topk_indexed

    def spy(*a, **kw):
        used.append(1)
        return real(*a, **kw)

    cache.index_min_rows, cache._topk_indexed = FORCED, spy
    try:
        indexed = fn()
    finally:
        cache._topk_indexed = real
    cache.index_min_rows = EXACT
    exact = fn()
    cache.index_min_rows = FORCED
    return indexed, exact, bool(used)


def _fill(cache: VectorCache, rng: np.random.Generator, n: int, keys: int, coarse: bool = False) -> None:
    """`n` puts of random keys below `keys`; `coarse` draws the vectors from a pool of 5 (exact ties)."""
    if coarse:
        vecs = (rng.integers(-2, 3, (5, DIM)) + (np.arange(DIM) == 0)).astype(np.float32)[rng.integers(0, 5, n)]
    else:
        vecs = rng.standard_normal((n, DIM)).astype(np.float32)
    cache.put_many(rng.integers(1, keys + 1, n).tolist(), vecs, rng.integers(0, 4, n).tolist())


ops = st.lists(st.one_of(
    st.tuples(st.just("put"), st.integers(20, 120), st.booleans()),
    st.tuples(st.just("remove"), st.integers(1, 60), st.just(False)),
), min_size=1, max_size=6)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops, st.integers(0, 2 ** 32 - 1))
def test_index_answer_is_the_exact_answer_among_its_candidates(tmp_path_factory, monkeypatch, steps, seed):
    """Whatever the index proposes, the answer is the exact path's answer over those candidate keys
    (same cosines to the bit, same tie rules), and the candidates are live rows that qualify."""
    seen: list[np.ndarray] = []
    search = vector_index.QuantizedRows.search
    monkeypatch.setattr(vector_index.QuantizedRows, "search",
                        lambda self, *a: seen.append(search(self, *a)[0]) or [seen[-1]])
    rng = np.random.default_rng(seed)
    cache = VectorCache(tmp_path_factory.mktemp("v"), DIM)
    _fill(cache, rng, 1_200, 1_500)
    used = 0
    for op, n, coarse in steps:
        if op == "put":
            _fill(cache, rng, n * (5 if coarse else 1), 1_500, coarse)   # re-puts of keys; exact ties
        else:
            cache.remove_many(rng.integers(1, 1_501, n).tolist())
        q = rng.standard_normal(DIM).astype(np.float32)
        allowed = np.asarray(sorted(set(rng.integers(1, 1_501, 1_000).tolist())), dtype=np.uint64)
        for tags in (None, [1, 2, 3]):
            for alw in (None, allowed):
                for k, ties in ((1, False), (10, False), (10, True)):
                    seen.clear()
                    cache.index_min_rows = FORCED
                    got = cache.topk(q, k, alw, tags=tags, with_ties=ties)
                    if not seen:     # a small share of the rows qualifies: the exact gather answered
                        assert alw is not None
                        continue
                    used += 1
                    keys = np.asarray([cache._keys[r] for r in seen[0]], dtype=np.uint64)
                    assert len(set(keys.tolist())) == keys.size == vector_index.oversample(k)
                    cache.index_min_rows = EXACT
                    exact_all = cache.topk(q, 10 ** 6, alw, tags=tags)
                    assert set(keys.tolist()) <= {h for h, _ in exact_all}   # live, qualifying rows
                    assert got == cache.topk(q, k, keys, tags=tags, with_ties=ties)
    assert used >= 6 * len(steps)   # at least every search without `allowed`
    cache.close()


def test_index_recall_on_a_fixed_store(tmp_path, monkeypatch):
    """Recall of the index path against the exact path, 64 dimensions, 3,000 rows, 200 candidates."""
    monkeypatch.setattr(vector_index, "MIN_CANDIDATES", 200)
    rng = np.random.default_rng(6)
    cache = VectorCache(tmp_path, 64)
    cache.put_many(range(1, 3_001), rng.standard_normal((3_000, 64)).astype(np.float32))
    hits = equal = 0
    for q in rng.standard_normal((50, 64)).astype(np.float32):
        got, want, used = _both(cache, lambda: cache.topk(q, 10))
        assert used
        hits += len({h for h, _ in got} & {h for h, _ in want})
        equal += got == want
    assert hits / 500 >= 0.98 and equal >= 40, (hits, equal)


def test_index_used_only_above_threshold_and_built_lazily(tmp_path, monkeypatch):
    monkeypatch.setattr(vector_index, "INDEX_MIN_ROWS", 1_300)
    rng = np.random.default_rng(1)
    cache = VectorCache(tmp_path, DIM)
    _fill(cache, rng, 1_299, 10_000)
    q = rng.standard_normal(DIM).astype(np.float32)
    cache.topk(q, 5)
    assert cache._quantized is None               # below the threshold: the exact scan
    _fill(cache, rng, 1, 10_000)
    assert cache._quantized is None               # writes alone build nothing
    cache.topk(q, 5)
    assert cache._quantized is not None and cache._quantized.n == 1_300
    cache.close()
    reopened = VectorCache(tmp_path, DIM)
    assert reopened._quantized is None            # opening builds nothing
    assert reopened.topk(q, 5) == VectorCache(tmp_path, DIM).topk(q, 5)
    assert reopened._quantized.n == 1_300


def test_rows_of_another_handle_are_indexed(tmp_path):
    rng = np.random.default_rng(2)
    a, b = VectorCache(tmp_path, DIM), VectorCache(tmp_path, DIM)
    a.index_min_rows = b.index_min_rows = FORCED
    _fill(a, rng, 1_300, 5_000)
    q = rng.standard_normal(DIM).astype(np.float32)
    a.topk(q, 3)
    target = q / np.linalg.norm(q)
    b.put(5_000, target, 2)           # the best possible row, written by the other handle
    b.remove(int(a.topk(q, 1, tags=[0, 1, 3])[0][0]))
    got, want, used = _both(a, lambda: a.topk(q, 10))
    assert used and got == want and got[0][0] == 5_000
    got, want, used = _both(a, lambda: a.topk(q, 10, tags=[0, 1, 3]))
    assert used and got == want
    assert a._quantized.n == 1_302


def test_returned_cosines_are_the_exact_paths_bits(tmp_path):
    rng = np.random.default_rng(3)
    cache = VectorCache(tmp_path, DIM)
    _fill(cache, rng, 1_500, 100_000)
    for _ in range(20):
        q = rng.standard_normal(DIM).astype(np.float32)
        got, want, used = _both(cache, lambda: cache.topk(q, 20))
        assert used and got == want     # == on floats: same bits


def test_same_writes_same_index_whenever_built(tmp_path):
    """Codes depend on the file only: an index built a few rows at a time finds what one built at the end finds."""
    rng = np.random.default_rng(4)
    vecs = rng.standard_normal((2_000, DIM)).astype(np.float32)
    qs = rng.standard_normal((20, DIM)).astype(np.float32)
    early, late = VectorCache(tmp_path / "a", DIM), VectorCache(tmp_path / "b", DIM)
    for c in (early, late):
        c.index_min_rows = FORCED
    for i in range(0, 2_000, 50):
        early.put_many(list(range(i, i + 50)), vecs[i: i + 50])
        late.put_many(list(range(i, i + 50)), vecs[i: i + 50])
        early.topk(qs[0], 1)    # builds at 1,000 rows, then extends by 50
    assert early._quantized.n == 2_000 and late._quantized is None
    for q in qs:
        assert np.array_equal(early.candidate_rows(q, 300), late.candidate_rows(q, 300))
        assert early.topk(q, 10, with_ties=True) == late.topk(q, 10, with_ties=True)


def test_candidate_rows_leave_out_hidden_and_other_tags(tmp_path):
    rng = np.random.default_rng(5)
    cache = VectorCache(tmp_path, DIM)
    cache.index_min_rows = FORCED
    _fill(cache, rng, 1_600, 100_000)
    q = rng.standard_normal(DIM).astype(np.float32)
    _, rows, _ = cache.snapshot(tags=[1, 2])
    best = cache.candidate_rows(q, 70, tags=[1, 2])
    assert best.size == 70 and np.isin(best, rows).all() and (np.diff(best) > 0).all()
    hidden = best[::2]
    again = cache.candidate_rows(q, 70, tags=[1, 2], hidden=hidden)
    assert again.size == 70 and not np.isin(again, hidden).any() and np.isin(best[1::2], again).all()
    cache.index_min_rows = EXACT
    assert cache.candidate_rows(q, 70, tags=[1, 2]) is None


@pytest.mark.parametrize("k", [1, 64])
def test_oversample(k):
    assert vector_index.oversample(k) == max(50, 10 * k)


def test_a_zero_query_is_answered_exactly(tmp_path):
    """Every row ties at 0 for a zero query: the exact path's smallest keys, not the index's pick."""
    rng = np.random.default_rng(7)
    cache = VectorCache(tmp_path, DIM)
    _fill(cache, rng, 1_500, 100_000)
    zero = np.zeros(DIM, dtype=np.float32)
    got, want, used = _both(cache, lambda: cache.topk(zero, 5, with_ties=True))
    assert not used and got == want and len(got) == len(cache)
    assert cache.candidate_rows(zero, 60) is None


def test_recent_rows_gather_what_the_file_holds(tmp_path, monkeypatch):
    """The index path's gathers (one mapping kept across appends, appended rows in memory) return the
    file's rows, through appends by this handle and another, and past the in-memory limit."""
    monkeypatch.setattr(vector_rows, "TAIL_ROWS", 40)
    rng = np.random.default_rng(8)
    a, b = VectorCache(tmp_path, DIM), VectorCache(tmp_path, DIM)
    _fill(a, rng, 100, 1_000)
    for step in range(30):
        (a if step % 3 else b).put_many(rng.integers(1, 1_000, 7).tolist(),
                                        rng.standard_normal((7, DIM)).astype(np.float32))
        if step == 20:
            a.remove(int(a.keys()[0]))
        rows = rng.integers(0, a.stats()["rows"], 50)
        got = a.rows_at(rows)
        assert np.array_equal(got, np.asarray(a._matrix())[rows])
    assert a._recent.base is not None and a._recent.tail_n > 0   # the last gathers came partly from memory


def test_bitmaps_kept_up_to_date_equal_fresh_ones(tmp_path):
    """The tag bitmaps extended after every append (re-puts, removes, another handle's rows) equal
    bitmaps computed afresh, with the same counts."""
    rng = np.random.default_rng(9)
    a, b = VectorCache(tmp_path, DIM), VectorCache(tmp_path, DIM)
    _fill(a, rng, 200, 300)
    for step in range(40):
        for tags in (None, [1], [0, 2, 3]):
            a._bitmap(tags)                       # cached, then kept up to date
        cache = a if step % 4 else b
        if step % 5 == 4:
            cache.remove_many(rng.integers(1, 301, 6).tolist())
        else:
            _fill(cache, rng, int(rng.integers(1, 9)), 300)
        a.keys()                                  # picks up b's rows
        for tags in (None, [1], [0, 2, 3]):
            kept = a._bitmap(tags)
            fresh = _fresh_bitmap(a, tags)
            assert np.array_equal(kept[0], fresh[0]) and kept[1] == fresh[1], (step, tags)


def _fresh_bitmap(cache: VectorCache, tags):
    """The bitmap of `tags` computed from scratch."""
    mask = cache._tag_mask(None if tags is None else tuple(sorted(tags)))
    return np.packbits(mask, bitorder="little"), int(mask.sum())
