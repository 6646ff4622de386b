"""VectorCache against a plain dict-of-arrays model computed in float64."""
from __future__ import annotations

import os
import struct

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference.errors import CorruptData
from reference.vectors import VectorCache, VectorDimMismatch, VectorModelMismatch


def unit(v) -> np.ndarray:
    v = np.asarray(v, dtype=np.float64)
    return v / np.linalg.norm(v)


def model_topk(model: dict[int, np.ndarray], q, k: int, allowed=None) -> list[tuple[int, float]]:
    qn = unit(q)
    items = [(key, float(unit(v) @ qn)) for key, v in model.items() if allowed is None or key in allowed]
    items.sort(key=lambda kv: (-kv[1], kv[0]))
    return items[:k]


def test_put_get_latest_wins_and_remove(tmp_path):
    vc = VectorCache(tmp_path, 3)
    vc.put(1, [3.0, 0, 4.0])
    np.testing.assert_allclose(vc.get(1), [0.6, 0, 0.8], rtol=1e-6)
    vc.put(1, [0, 2.0, 0])
    np.testing.assert_allclose(vc.get(1), [0, 1, 0])
    vc.put_many([2, 3], np.array([[1.0, 0, 0], [0, 0, 1.0]]))
    assert list(vc.keys()) == [1, 2, 3] and len(vc) == 3
    assert vc.remove(2) and not vc.remove(2) and not vc.remove(99)
    assert vc.get(2) is None and 2 not in vc and len(vc) == 2
    vc.put(2, [1.0, 1.0, 0])  # a removed key can come back
    assert 2 in vc
    assert vc.stats()["rows"] == 6  # 1, 1 again, 2, 3, tombstone of 2, 2 again: every change appends
    vc.close()


def test_bad_vectors_are_rejected(tmp_path):
    vc = VectorCache(tmp_path, 3)
    with pytest.raises(VectorDimMismatch):
        vc.put(1, [1.0, 2.0])
    with pytest.raises(ValueError, match="zero vector"):
        vc.put(1, [0.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="finite"):
        vc.put(1, [np.nan, 1.0, 0.0])
    with pytest.raises(ValueError, match="64-bit"):
        vc.put(-1, [1.0, 0, 0])
    with pytest.raises(VectorDimMismatch):
        vc.topk([1.0, 0], 1)
    assert vc.stats()["rows"] == 0
    vc.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.dictionaries(st.integers(0, (1 << 64) - 1),
                         st.lists(st.floats(-1, 1, allow_nan=False, width=32), min_size=4, max_size=4)
                         .filter(lambda v: np.linalg.norm(v) > 0.1), min_size=1, max_size=30),
    q=st.lists(st.floats(-1, 1, allow_nan=False, width=32), min_size=4, max_size=4).filter(
        lambda v: np.linalg.norm(v) > 0.1),
    k=st.integers(1, 10),
    restrict=st.booleans(),
)
def test_topk_matches_brute_force_model(tmp_path_factory, data, q, k, restrict):
    vc = VectorCache(tmp_path_factory.mktemp("v"), 4)
    vc.put_many(list(data), np.array(list(data.values())))
    allowed = set(list(data)[::2]) if restrict else None
    got = vc.topk(q, k, allowed=None if allowed is None else np.array(sorted(allowed), dtype=np.uint64))
    want = model_topk(data, q, k, allowed)
    assert len(got) == len(want)
    np.testing.assert_allclose([s for _, s in got], [s for _, s in want], atol=1e-5)
    # keys agree wherever the score is not within float32 noise of a neighbour
    for (gk, gs), (wk, ws) in zip(got, want):
        if gk != wk:
            assert abs(gs - ws) < 1e-5
    vc.close()


def test_tags_restrict_topk(tmp_path):
    vc = VectorCache(tmp_path, 2)
    vc.put_many([1, 2, 3], np.array([[1.0, 0], [0.9, 0.1], [0.8, 0.2]]), tags=[4, 2, 4])
    assert [k for k, _ in vc.topk([1.0, 0], 5, tags=[4])] == [1, 3]
    assert [k for k, _ in vc.topk([1.0, 0], 5, tags=[2, 7])] == [2]
    assert [k for k, _ in vc.topk([1.0, 0], 5, allowed=np.array([2, 3], dtype=np.uint64), tags=[4])] == [3]
    vc.put(3, [1.0, 0.0], tag=2)  # a re-put may carry another tag: the latest row's counts
    assert vc.tag(3) == 2 and vc.tag(99) is None
    assert [k for k, _ in vc.topk([1.0, 0], 5, tags=[4])] == [1]
    with pytest.raises(ValueError, match="tags"):
        vc.put(4, [1.0, 0], tag=256)
    vc.close()


def test_ties_are_broken_by_key_and_with_ties_keeps_all_equal_scores(tmp_path):
    vc = VectorCache(tmp_path, 2)
    vc.put_many([30, 10, 20, 40], np.array([[1.0, 0], [1.0, 0], [1.0, 0], [0, 1.0]]))
    assert [k for k, _ in vc.topk([1, 0], 2)] == [10, 20]
    assert [k for k, _ in vc.topk([1, 0], 2, with_ties=True)] == [10, 20, 30]
    assert [k for k, _ in vc.topk([1, 0], 4)] == [10, 20, 30, 40]
    vc.close()


def test_scores_reports_nan_for_missing_keys(tmp_path):
    vc = VectorCache(tmp_path, 2)
    vc.put_many([1, 2], np.array([[1.0, 0], [0.6, 0.8]]))
    s = vc.scores([1.0, 0], [2, 5, 1])
    np.testing.assert_allclose(s[[0, 2]], [0.6, 1.0], rtol=1e-6)
    assert np.isnan(s[1])
    vc.close()


def test_reopen_gives_the_same_answers(tmp_path):
    rng = np.random.RandomState(0)
    vecs = rng.randn(50, 8)
    vc = VectorCache(tmp_path, 8, model="m")
    vc.put_many(list(range(50)), vecs)
    vc.remove(7)
    before = vc.topk(vecs[7], 5)
    vc.close()
    vc2 = VectorCache(tmp_path, 8, model="m")
    assert vc2.topk(vecs[7], 5) == before
    assert 7 not in [k for k, _ in before]
    vc2.close()


def test_documented_file_format_loads_with_numpy_memmap(tmp_path):
    vc = VectorCache(tmp_path, 4, model="hashing-v1")
    vc.put_many([5, 6], np.array([[1.0, 0, 0, 0], [0, 3.0, 4.0, 0]]), tags=[3, 9])
    vc.close()
    head = (tmp_path / "vectors.f32").read_bytes()[:64]
    magic, version, dim = struct.unpack("<8sII", head[:16])
    assert (magic, version, dim) == (b"CMVECF32", 2, 4)
    assert (tmp_path / "vectors.tags").read_bytes() == bytes([3, 9])
    assert head[16:48].rstrip(b"\0") == b"hashing-v1"
    rows = np.memmap(tmp_path / "vectors.f32", dtype="<f4", mode="r", offset=64, shape=(2, 4))
    keys = np.fromfile(tmp_path / "vectors.keys", dtype="<u8")
    assert keys.tolist() == [5, 6]
    np.testing.assert_allclose(rows[1], [0, 0.6, 0.8, 0], rtol=1e-6)


def test_another_handle_sees_new_rows(tmp_path):
    a, b = VectorCache(tmp_path, 2), VectorCache(tmp_path, 2)
    a.put(1, [1.0, 0])
    assert b.get(1) is not None  # b picks the row up from the file
    b.put(2, [0, 1.0])
    a.remove(1)
    assert [k for k, _ in b.topk([1.0, 0.1], 5)] == [2]
    assert [k for k, _ in a.topk([1.0, 0.1], 5)] == [2]
    a.close()
    b.close()


def test_dimension_and_model_are_fixed_per_store(tmp_path):
    VectorCache(tmp_path, 4, model="hashing-v1").close()
    with pytest.raises(VectorDimMismatch, match="4-dimensional"):
        VectorCache(tmp_path, 8, model="hashing-v1")
    with pytest.raises(VectorModelMismatch, match="hashing-v1"):
        VectorCache(tmp_path, 4, model="st:other")


def test_torn_tail_is_cut_back_to_whole_pairs(tmp_path):
    vc = VectorCache(tmp_path, 4)
    vc.put_many([1, 2], np.eye(4)[:2])
    vc.close()
    with open(tmp_path / "vectors.f32", "ab") as fh:
        fh.write(np.ones(4, "<f4").tobytes() + b"\x01\x02")  # one whole row without its key, then a torn row
    with open(tmp_path / "vectors.keys", "ab") as fh:
        fh.write(b"\x03\x00\x00")  # a torn key
    vc = VectorCache(tmp_path, 4)
    assert vc.recovered_bytes == 16 + 2 + 3
    assert list(vc.keys()) == [1, 2]
    vc.put(3, [0, 0, 1.0, 0])
    np.testing.assert_allclose(vc.get(3), [0, 0, 1, 0])
    assert os.path.getsize(tmp_path / "vectors.keys") == 24
    vc.close()


def test_put_after_another_writer_crashed_mid_row(tmp_path):
    vc = VectorCache(tmp_path, 4)
    vc.put(1, [1.0, 0, 0, 0])
    with open(tmp_path / "vectors.f32", "ab") as fh:
        fh.write(b"\x00" * 7)  # part of a row whose key was never written
    vc.put(2, [0, 1.0, 0, 0])
    np.testing.assert_allclose(vc.get(2), [0, 1, 0, 0])
    vc.close()
    again = VectorCache(tmp_path, 4)
    assert again.recovered_bytes == 0
    np.testing.assert_allclose(again.get(2), [0, 1, 0, 0])
    np.testing.assert_allclose(again.get(1), [1, 0, 0, 0])
    again.close()


@pytest.mark.parametrize("name", ["vectors.f32", "vectors.keys", "vectors.tags", "vectors.sums"])
def test_every_flipped_byte_of_a_row_is_refused_naming_the_row(tmp_path, name):
    vc = VectorCache(tmp_path, 4)
    vc.put_many([10, 20, 30], np.eye(4, dtype=np.float32)[:3] + 0.1, [1, 2, 3])
    vc.close()
    path = tmp_path / name
    clean = path.read_bytes()
    start = 64 if name == "vectors.f32" else 0
    for pos in range(start, len(clean)):
        data = bytearray(clean)
        data[pos] ^= 0x04
        path.write_bytes(bytes(data))
        vc = VectorCache(tmp_path, 4)
        for read in (lambda: vc.get(10), lambda: vc.topk(np.ones(4), 2), lambda: vc.scan(np.ones(4)), lambda: vc.keys(),
                     lambda: len(vc)):
            with pytest.raises(CorruptData, match=name) as info:
                read()
            assert "fails its checksum" in str(info.value) and "row " in str(info.value)
        vc.put(40, np.ones(4))  # writes still work
        vc.close()
        path.write_bytes(clean)
        for p in ("vectors.f32", "vectors.keys", "vectors.tags", "vectors.sums"):  # drop the extra row
            q = tmp_path / p
            keep = {"vectors.f32": 64 + 3 * 16, "vectors.keys": 24, "vectors.tags": 3, "vectors.sums": 12}[p]
            q.write_bytes(q.read_bytes()[:keep])


def test_a_store_from_before_row_checksums_gets_them_on_open(tmp_path):
    vc = VectorCache(tmp_path, 3)
    vc.put_many([1, 2], np.asarray([[1, 0, 0], [0, 1, 0]], dtype=np.float32), 4)
    sums = (tmp_path / "vectors.sums").read_bytes()
    vc.close()
    (tmp_path / "vectors.sums").unlink()
    vc = VectorCache(tmp_path, 3)
    assert (tmp_path / "vectors.sums").read_bytes() == sums
    assert vc.topk(np.asarray([1.0, 0, 0]), 1)[0][0] == 1
    vc.close()
