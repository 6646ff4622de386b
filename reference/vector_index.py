"""A quantized copy of the vector cache's rows (faiss SQ8) that proposes candidates for an exact re-rank.

Above `INDEX_MIN_ROWS` rows, `VectorCache.topk` and the knowledge layer's neighbour lookup
scan these 8-bit codes (one byte per dimension, a quarter of the float32 rows' bytes, with
faiss's SIMD kernels: about 2 ms for 100k x 256 here against 5-6 ms for the float32 einsum)
to find `oversample(k)` candidate rows, then score only those exactly. Scores returned to
callers always come from the float32 rows; only the choice of candidates is approximate
(a row missing from the candidates can be missed in the answer). Recall against the exact
scan is measured in bench/benchmarks/bench_scale.py (reference/README.md, "Vectors").

Deterministic: the quantizer's range (`QT_8bit_uniform`: one min / max over all values) is
learned from the file's first `train_rows(min_rows)` rows, which never change (the file is
append-only) and exist whenever the index does, so a row's code depends only on the file,
not on when or in which process the index was built. faiss runs on one thread.

In memory only, derived from `vectors.f32`, never the source of truth: built on first use
after the cache passes the threshold (never on open), extended by the rows appended since
(ours or another process's, picked up by the cache's refresh). Dead rows (overwritten,
removed) keep their codes and are ruled out by the caller's row mask, as the exact scan
rules them out by score.
"""
from __future__ import annotations

import numpy as np

try:
    import faiss
except ImportError:  # pragma: no cover - faiss-cpu is a required dependency
    faiss = None

INDEX_MIN_ROWS = 20_000   # below this many rows (live or not) every search is the exact scan
TRAIN_ROWS = 20_000       # the quantizer's range comes from the first rows of the file, at most this many

if faiss is not None:
    # one thread: answers must not depend on OpenMP scheduling, and on a busy 2-core machine
    # waking threads costs more than they gain
    faiss.omp_set_num_threads(1)


def available() -> bool:
    return faiss is not None


def oversample(k: int) -> int:
    """Candidates fetched for a top `k`: max(4k, k + 64). Measured at 100k hashing-v1 rows:
    100 candidates already give recall@10 = 1.0 and 400 give recall@100 = 1.0 (SQ8's error on
    a cosine is about 1e-3, small against the gaps between the k-th and the 4k-th score)."""
    return max(4 * k, k + 64)


def train_rows(min_rows: int) -> int:
    """How many leading rows train the quantizer for an index used from `min_rows` rows on."""
    return max(1, min(TRAIN_ROWS, min_rows))


def row_mask(n: int, rows: np.ndarray) -> np.ndarray:
    """A faiss bitmap (little-endian bits, one per row below `n`) with the given rows set."""
    mask = np.zeros(n, dtype=bool)
    mask[rows] = True
    return np.packbits(mask, bitorder="little")


class QuantizedRows:
    """SQ8 codes of rows 0..n-1 of a float32 matrix, searched by inner product under a row mask."""

    def __init__(self, dim: int, n_train: int) -> None:
        self.dim, self.n_train = dim, n_train
        self._index = None
        self.n = 0  # rows coded so far

    def catch_up(self, mat: np.ndarray) -> None:
        """Code the rows of `mat` not coded yet (training first, from its leading rows)."""
        if self._index is None:
            index = faiss.IndexScalarQuantizer(self.dim, faiss.ScalarQuantizer.QT_8bit_uniform,
                                               faiss.METRIC_INNER_PRODUCT)
            index.train(np.ascontiguousarray(mat[: self.n_train], dtype=np.float32))
            self._index = index
        if mat.shape[0] > self.n:
            for start in range(self.n, mat.shape[0], 65_536):  # bounded copies out of the mmap
                self._index.add(np.ascontiguousarray(mat[start: min(mat.shape[0], start + 65_536)]))
            self.n = mat.shape[0]

    def search(self, queries: np.ndarray, count: int, bitmap: np.ndarray) -> np.ndarray:
        """Rows (one array per query, best approximate score first) of up to `count` rows whose
        bit is set in `bitmap` (see `row_mask`)."""
        sel = faiss.IDSelectorBitmap(len(bitmap), faiss.swig_ptr(bitmap))
        _, found = self._index.search(np.ascontiguousarray(queries, dtype=np.float32), int(count),
                                      params=faiss.SearchParameters(sel=sel))
        return [r[r >= 0] for r in found]
