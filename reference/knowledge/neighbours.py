"""Vector neighbours of newly written memories for the relationship rules, a whole batch at once.

`live_neighbours(store, entries, k, threshold)` gives, for each entry, its `k` nearest
memories with cosine above `threshold` (best first, ties by id), among the memories
stored before it: the store before the batch and the entries before it in the batch,
as if they had been written one by one. Only neighbours above `RELATE_THRESHOLD`
change what the rules decide, so none below it are returned.

The answer does not depend on how the writes were batched. Approximate float32 scores
(one BLAS product per chunk of the batch) only choose candidates, with a margin
(`MARGIN`) far wider than float32's rounding error on a 256-term dot product of unit
vectors (about 1.5e-5); the candidates are then re-scored as float64 sums of the
float32 rows, rounded to float32, and selected from those. Two float64 summation
orders round to different float32 values only when a sum falls within about 1e-16 of a
float32 rounding midpoint.

Above the vector cache's index threshold (`vector_index.INDEX_MIN_ROWS`) the candidates
come from its quantized index instead (`VectorCache.candidate_rows`: the
`oversample(k)` best by 4-bit PQ codes, later batch entries left out), re-scored the same
way: the rule holds among those candidates, and a true neighbour outside them is missed
(recall measured in bench/benchmarks/bench_scale.py). No product with every stored row.
"""
from __future__ import annotations

import contextlib
from typing import Any

import numpy as np

from reference.memory_record import MemoryEntry
from reference.vector_index import oversample
from reference.vector_search import KIND_TAGS

MARGIN = 1e-4
CHUNK = 64   # queries per BLAS product: bounds the score block to CHUNK x store rows


def live_neighbours(store: Any, entries: list[MemoryEntry], k: int, threshold: float
                    ) -> list[list[tuple[int, float]]]:
    """Per entry, (key hash, cosine) of up to `k` earlier memories above `threshold` (see the module doc)."""
    vc = store.vectors
    out: list[list[tuple[int, float]]] = [[] for _ in entries]
    brow = vc.rows_of([e.key_hash for e in entries])
    todo = [i for i in range(len(entries)) if brow[i] >= 0]
    if not todo or _from_index(vc, brow, todo, k, threshold, out):
        return out
    mat, rows, keys = vc.snapshot(tags=[KIND_TAGS["memory"]])
    if rows.size == 0:
        return out
    # position of each batch member in `rows` (they are live memory rows): excluded for itself and earlier entries
    bpos = np.searchsorted(rows, brow)
    for start in range(0, len(todo), CHUNK):
        part = todo[start: start + CHUNK]
        queries = np.stack([_unit(np.asarray(mat[brow[i]], dtype=np.float32)) for i in part])
        if len(part) == 1:
            approx = np.einsum("ij,j->i", mat, queries[0])[None, :]
        else:
            with _one_blas_thread():
                approx = queries @ mat.T      # one row of scores per query, every row of the matrix
        if rows.size != mat.shape[0]:
            approx = approx[:, rows]
        for t, i in enumerate(part):
            s = approx[t] if rows.size != mat.shape[0] else approx[t].copy()
            later = bpos[i:][brow[i:] >= 0]
            s[later] = -np.inf
            cand = _shortlist(s, k, threshold)
            if cand.size:
                out[i] = _rescored(mat, rows[cand], keys[cand], queries[t], threshold)
    return out


def _shortlist(s: np.ndarray, k: int, threshold: float) -> np.ndarray:
    """Positions in the float32 scores `s` that can be among the top `k` above `threshold`
    once re-scored exactly (the margins of the module doc)."""
    cand = np.flatnonzero(s > threshold - MARGIN)
    if cand.size > k:
        sc = s[cand]
        kth = np.partition(sc, sc.size - k)[sc.size - k]
        cand = cand[sc >= kth - 2 * MARGIN]
    return cand


def _rescored(mat: np.ndarray, at: np.ndarray, at_keys: np.ndarray, query: np.ndarray, threshold: float
              ) -> list[tuple[int, float]]:
    """(key, cosine) of the rows `at` above `threshold`, cosines as float64 sums rounded to float32."""
    exact = (np.asarray(mat[at], dtype=np.float64) @ query.astype(np.float64)).astype(np.float32)
    keep = exact > threshold
    return [(int(h), float(x)) for h, x in zip(at_keys[keep], exact[keep])]


def _from_index(vc: Any, brow: np.ndarray, todo: list[int], k: int, threshold: float,
                out: list[list[tuple[int, float]]]) -> bool:
    """`live_neighbours` with candidates from the cache's quantized index; False (and `out`
    left empty) when the cache does not use its index at this size."""
    tags = [KIND_TAGS["memory"]]
    queries = vc.rows_at(brow[todo])
    for t, i in enumerate(todo):
        query = _unit(queries[t])
        later = brow[i:]
        cand = vc.candidate_rows(query, oversample(k), tags=tags, hidden=later[later >= 0])
        if cand is None:
            out[:] = [[] for _ in out]
            return False
        vecs = vc.rows_at(cand)
        short = _shortlist(np.einsum("ij,j->i", vecs, query), k, threshold)
        if short.size:
            out[i] = _rescored(vecs, short, vc.keys_at(cand[short]), query, threshold)
    return True


_CONTROLLER: list[Any] = []


def _one_blas_thread() -> Any:
    """Single-threaded BLAS for the product: on a busy machine OpenBLAS's threads cost more
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


def _unit(v: np.ndarray) -> np.ndarray:
    """The query as `VectorCache` normalises one (float32 division by its norm)."""
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v
