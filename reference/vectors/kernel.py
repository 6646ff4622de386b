"""Approximate float32 dot products of queries with many rows: the candidate step of an exact search.

`products(queries, pieces)` scores every query against the rows of each piece (views of the cache's
rows, in order) and returns one (queries, rows) float32 block. One query against `FAISS_MIN_ROWS` rows
or more goes through faiss's SIMD `fvec_inner_products_ny` (measured here at 10k x 256: 0.17 ms against 0.39 ms for `np.einsum` and
0.19 ms for single-threaded BLAS gemv; 0.48 / 0.97 / 0.74 ms at 20k); fewer rows, and several
queries, go through one BLAS product per piece on one thread.

The sums' order (and so their last bits) depends on the kernel and the machine's SIMD width, so a
caller must use these scores only to choose candidates with a margin far wider than float32's rounding
error on a 256-term dot product of unit vectors (about 1.5e-5; measured against float64 here: under
1e-7), and compute the scores it returns or compares exactly (`reference/knowledge/neighbours.py`).
"""
from __future__ import annotations

import contextlib
from typing import Any

import numpy as np

from reference.vectors import index as vector_index

# Below this, one query goes through BLAS too. Isolated, BLAS is as fast at 1k rows (0.014 against 0.013 ms),
# but it needs the thread limit set and restored around it (threadpoolctl, ~8 us each way, more when a write's
# SQLite work has evicted it from the CPU caches): a single write's neighbour lookup at 1k rows measured
# 190-212 -> 159-160 µs CPU p50 with faiss. A store this small imports faiss (~40 ms, once a process) only past it.
FAISS_MIN_ROWS = 256

_CONTROLLER: list[Any] = []


def products(queries: np.ndarray, pieces: list[np.ndarray]) -> np.ndarray:
    """(len(queries), total rows) float32 dot products; `queries` is (q, dim) float32."""
    queries = np.ascontiguousarray(queries, dtype=np.float32)
    total = sum(p.shape[0] for p in pieces)
    out = np.empty((queries.shape[0], total), dtype=np.float32)
    # faiss is imported (about 40 ms, once) only where it pays: one query against many rows
    faiss = vector_index.faiss_module() if queries.shape[0] == 1 and total >= FAISS_MIN_ROWS else None
    blas = faiss is None or not all(p.flags.c_contiguous for p in pieces)
    # the thread limit is set once for every piece (the mapping and the rows appended since): about 8 us each time
    with one_blas_thread() if blas else contextlib.nullcontext():
        at = 0
        for piece in pieces:
            m = piece.shape[0]
            if not m:
                continue
            if faiss is not None and piece.flags.c_contiguous:
                faiss.fvec_inner_products_ny(faiss.swig_ptr(out[0, at: at + m]), faiss.swig_ptr(queries[0]),
                                             faiss.swig_ptr(piece), piece.shape[1], m)
            else:
                out[:, at: at + m] = queries @ np.asarray(piece).T
            at += m
    return out


def products_at(query: np.ndarray, rows: np.ndarray, pieces: list[np.ndarray]) -> np.ndarray:
    """Float32 dot products of one query with the given rows of the pieces taken as one matrix
    (`products`'s caveat applies). With faiss, `fvec_inner_products_by_idx` reads the rows in place
    (measured at 1,000 scattered rows of 100k: 0.03 ms against 0.11 ms to gather and einsum them)."""
    query = np.ascontiguousarray(query, dtype=np.float32)
    rows = np.asarray(rows, dtype=np.int64)
    out = np.empty(rows.size, dtype=np.float32)
    faiss = vector_index.faiss_module()
    at = 0
    for piece in pieces:
        m = piece.shape[0]
        mine = (rows >= at) & (rows < at + m)
        if mine.any():
            ids = np.ascontiguousarray(rows[mine] - at)
            if faiss is not None and piece.flags.c_contiguous:
                part = np.empty(ids.size, dtype=np.float32)
                faiss.fvec_inner_products_by_idx(faiss.swig_ptr(part), faiss.swig_ptr(query), faiss.swig_ptr(piece),
                                                 faiss.swig_ptr(ids), piece.shape[1], 1, ids.size)
            else:
                part = np.einsum("ij,j->i", piece[ids], query)
            out[mine] = part
        at += m
    return out


def one_blas_thread() -> Any:
    """Single-threaded BLAS for a product: on a busy machine OpenBLAS's threads cost more
    than they gain (measured here: 64 queries x 10k rows, 69 ms wall threaded against 23 ms
    on one thread). Uses threadpoolctl (a declared dependency)."""
    if not _CONTROLLER:
        try:
            from threadpoolctl import ThreadpoolController
            _CONTROLLER.append(ThreadpoolController())
        except ImportError:
            _CONTROLLER.append(None)
    ctl = _CONTROLLER[0]
    return contextlib.nullcontext() if ctl is None else ctl.limit(limits=1, user_api="blas")
