"""The fixed sparse random projection from hashed feature buckets to the embedding dimension.

Each bucket is sent to `nnz` distinct output dimensions with random signs,
scaled by 1/sqrt(nnz) (a very sparse Achlioptas/Li projection with a fixed
number of non-zeros per bucket). It is kept as two arrays, `cols[bucket]`
and `vals[bucket]`, so projecting a text is one `np.bincount`. Built with
numpy's legacy `RandomState`, whose streams numpy keeps stable across
versions, so the table (and every stored vector) is the same on every
machine. scikit-learn's `SparseRandomProjection` is not used: at its default
density 1/sqrt(n) about 70 % of the buckets of a 2^18-wide hash space would
map to nothing, and its sampler is not promised stable across releases.
"""
from __future__ import annotations

import functools

import numpy as np


@functools.lru_cache(maxsize=4)
def projection_table(n_buckets: int, dim: int, nnz: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(cols int64 (n_buckets, nnz) distinct per row, vals float64 ±1/sqrt(nnz)); read-only."""
    if not 0 < nnz <= dim:
        raise ValueError(f"nnz must be in 1..{dim}, got {nnz}")
    rs = np.random.RandomState(seed)
    cols = rs.randint(0, dim, size=(n_buckets, nnz)).astype(np.int64)
    # Redraw the (few) rows whose columns repeat, so every bucket has nnz distinct outputs.
    while True:
        srt = np.sort(cols, axis=1)
        dup = np.flatnonzero((srt[:, 1:] == srt[:, :-1]).any(axis=1))
        if dup.size == 0:
            break
        cols[dup] = rs.randint(0, dim, size=(dup.size, nnz))
    vals = (rs.randint(0, 2, size=(n_buckets, nnz)) * 2 - 1) / np.sqrt(nnz)
    cols.setflags(write=False)
    vals.setflags(write=False)
    return cols, vals
