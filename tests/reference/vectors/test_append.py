"""A write indexes its own rows from memory; rows another process appended are still read and checked."""
from __future__ import annotations

import numpy as np
import pytest

from reference.errors import CorruptData
from reference.vectors import VectorCache


def _reads(vc: VectorCache, monkeypatch) -> list[tuple[int, int]]:
    calls: list[tuple[int, int]] = []
    real = vc._files.read
    monkeypatch.setattr(vc._files, "read", lambda start, count: calls.append((start, count)) or real(start, count))
    return calls


def test_own_rows_are_not_read_back_and_a_fresh_open_sees_the_same(tmp_path, monkeypatch):
    vc = VectorCache(tmp_path, 4)
    calls = _reads(vc, monkeypatch)
    rng = np.random.default_rng(0)
    vecs = rng.standard_normal((5, 4)).astype(np.float32)
    vc.put_many([1, 2, 3], vecs[:3], [1, 2, 1])
    vc.put(2, vecs[3], 2)     # a re-put: row 1 dies
    vc.remove(3)
    assert calls == []
    fresh = VectorCache(tmp_path, 4)
    assert list(vc.keys()) == list(fresh.keys()) == [1, 2]
    for key in (1, 2):
        assert np.array_equal(vc.get(key).view(np.uint32), fresh.get(key).view(np.uint32))
    assert vc.tag(2) == fresh.tag(2) == 2 and vc.get(3) is None and fresh.get(3) is None
    q = vecs[4]
    assert vc.topk(q, 3) == fresh.topk(q, 3)
    assert vc.topk(q, 3, tags=[1]) == fresh.topk(q, 3, tags=[1]) and len(vc.topk(q, 3, tags=[1])) == 1


def test_rows_of_another_writer_are_read_before_ours(tmp_path, monkeypatch):
    a, b = VectorCache(tmp_path, 4), VectorCache(tmp_path, 4)
    a.put(1, [1.0, 0, 0, 0])
    b.put(2, [0, 1.0, 0, 0])
    calls = _reads(a, monkeypatch)
    a.put(3, [0, 0, 1.0, 0])   # b's row 1 is read (and checked) first; a's row 2 is not read back
    assert calls == [(1, 1)]
    assert list(a.keys()) == [1, 2, 3]
    assert a.topk([0, 1.0, 0.1, 0], 1)[0][0] == 2


def test_a_damaged_row_of_another_writer_is_still_caught_by_our_next_write(tmp_path):
    a, b = VectorCache(tmp_path, 4), VectorCache(tmp_path, 4)
    a.put(1, [1.0, 0, 0, 0])
    b.put(2, [0, 1.0, 0, 0])
    with open(tmp_path / "vectors.f32", "r+b") as f:   # flip a byte of b's row (row 1) behind a's back
        f.seek(64 + 16 + 2)
        byte = f.read(1)
        f.seek(64 + 16 + 2)
        f.write(bytes([byte[0] ^ 0x40]))
    a.put(3, [0, 0, 1.0, 0])   # writes still work
    with pytest.raises(CorruptData, match="row 1"):
        a.keys()


def test_reads_after_appends_are_bit_identical_to_a_fresh_mapping(tmp_path, monkeypatch):
    """Exact scores read through the mapping kept across appends plus the rows appended since (mapped
    again every TAIL_ROWS rows, here 16) equal, bit for bit, those of a cache that maps the file afresh."""
    from reference.vectors import rows as vector_rows
    monkeypatch.setattr(vector_rows, "TAIL_ROWS", 16)
    rng = np.random.default_rng(2)
    vc = VectorCache(tmp_path, 8)
    vc.put_many(list(range(1, 301)), rng.standard_normal((300, 8)), [1, 2] * 150)
    for step in range(40):
        key = int(rng.integers(1, 400))   # new keys and re-puts (their old rows die)
        vc.put(key, rng.standard_normal(8), 1 + step % 2)
        q = rng.standard_normal(8)
        fresh = VectorCache(tmp_path, 8)
        assert vc.topk(q, 7) == fresh.topk(q, 7)
        assert vc.topk(q, 5, tags=[2]) == fresh.topk(q, 5, tags=[2])
        got, want = vc.scan(q), fresh.scan(q)
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1].view(np.uint32), want[1].view(np.uint32))
        few = rng.choice(np.arange(1, 400), 20)
        assert np.array_equal(vc.scores(q, few), fresh.scores(q, few), equal_nan=True)
        assert np.array_equal(vc.get(key).view(np.uint32), fresh.get(key).view(np.uint32))
        fresh.close()
