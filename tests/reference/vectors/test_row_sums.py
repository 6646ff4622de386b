"""A single row's checksum (one integer dot product) is the checksum the many-row path gives that row."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.vectors.files import row_sums


@settings(max_examples=100, deadline=None)
@given(key=st.integers(0, (1 << 64) - 1), tag=st.integers(0, 255), seed=st.integers(0, 2**32 - 1),
       dim=st.sampled_from([1, 3, 256]))
def test_one_row_sums_as_in_a_batch(key, tag, seed, dim):
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, 1 << 32, size=(2, dim), dtype=np.uint64).astype(np.uint32).view(np.float32)
    keys = np.array([key, key ^ 0x5555], dtype=np.uint64)
    tags = np.array([tag, 255 - tag], dtype=np.uint8)
    both = row_sums(keys, rows, tags)
    assert row_sums(keys[:1], rows[:1], tags[:1]).tolist() == [both[0]]
    assert row_sums(keys[1:], rows[1:], tags[1:]).tolist() == [both[1]]


def test_a_short_write_is_finished(tmp_path, monkeypatch):
    """`os.write` may take part of the bytes (a signal, a nearly full disk): the rest follows."""
    import os

    from reference.vectors import files as vector_files
    real = os.write
    monkeypatch.setattr(vector_files.os, "write", lambda fd, data: real(fd, bytes(data[:3])))
    fd = os.open(tmp_path / "f", os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        vector_files._write_all(fd, b"0123456789abcdef")
    finally:
        os.close(fd)
    assert (tmp_path / "f").read_bytes() == b"0123456789abcdef"
