"""The candidate kernels: every product within float32 rounding of the float64 one, whatever the pieces."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.vectors import kernel as vector_kernel
from reference.vectors.rows import RecentRows

BOUND = 1.5e-5   # the error neighbours.MARGIN (1e-4) is chosen against


def _unit_rows(rng: np.random.Generator, n: int, dim: int) -> np.ndarray:
    m = rng.standard_normal((n, dim)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 300), cut=st.integers(0, 300), q=st.integers(1, 5), dim=st.sampled_from([8, 256]),
       seed=st.integers(0, 2**32 - 1), faiss=st.booleans())
def test_products_match_float64_across_pieces(n, cut, q, dim, seed, faiss):
    """With faiss's kernels and with the numpy fallback (faiss missing)."""
    from reference.vectors import index as vector_index
    saved, least = list(vector_index._FAISS), vector_kernel.FAISS_MIN_ROWS
    vector_index._FAISS[:] = saved if faiss else [None]
    vector_kernel.FAISS_MIN_ROWS = 0   # small matrices through faiss's kernel too
    try:
        _check_products(n, cut, q, dim, seed)
    finally:
        vector_index._FAISS[:] = saved
        vector_kernel.FAISS_MIN_ROWS = least


def _check_products(n, cut, q, dim, seed):
    rng = np.random.default_rng(seed)
    mat = _unit_rows(rng, n, dim)
    queries = _unit_rows(rng, q, dim)
    cut = min(cut, n)
    got = vector_kernel.products(queries, [mat[:cut], mat[cut:]])
    want = queries.astype(np.float64) @ mat.astype(np.float64).T
    assert got.shape == (q, n) and got.dtype == np.float32
    assert np.abs(got - want).max(initial=0.0) < BOUND
    rows = rng.choice(n, size=min(n, 40), replace=False) if n else np.zeros(0, dtype=np.int64)
    at = vector_kernel.products_at(queries[0], rows, [mat[:cut], mat[cut:]])
    assert np.abs(at - want[0, rows]).max(initial=0.0) < BOUND


def test_recent_rows_pieces_are_the_mapping_then_the_appended_rows():
    rng = np.random.default_rng(1)
    mat = _unit_rows(rng, 50, 8)
    rows = RecentRows(8)
    assert len(rows.pieces(30, lambda: mat[:30])) == 1
    rows.appended(30, mat[30:50])
    pieces = rows.pieces(50, lambda: mat[:50])
    assert [p.shape[0] for p in pieces] == [30, 20]
    assert np.array_equal(np.concatenate(pieces), mat)
