"""A compressed copy of the vector cache's rows (faiss 4-bit PQ fast scan) that proposes candidates for an exact re-rank.

Above `INDEX_MIN_ROWS` rows, `VectorCache.topk` and the knowledge layer's neighbour lookup
scan these codes (product quantization: each pair of dimensions coded in 4 bits against
16 learned centroids, 1/16 of the float32 rows' bytes, scored with faiss's SIMD lookup
tables: about 0.4 ms for 100k x 256 here against 5-6 ms for the float32 einsum) to find
`oversample(k)` candidate rows (`neighbour_candidates(k)` for the neighbour lookup), then
score only those exactly. Scores returned to callers always come from the float32 rows;
only the choice of candidates is approximate (a row missing from the candidates can be
missed in the answer). Recall against the exact scan is
measured in bench/benchmarks/bench_scale.py (reference/README.md, "Vectors").

The index is an `IndexIVFPQFastScan` with a single list (so, a flat scan) because that
class honours a row bitmap (`IDSelectorBitmap`) during the scan, which the flat
`IndexPQFastScan` does not: dead rows, other tags and a batch's later entries are ruled
out inside the scan, not after it. Measured alternatives (100k hashing-v1 rows, one
thread): 8-bit scalar quantization 1.9 ms per query (recall@10 1.0 with 100 candidates);
IVF with 256-512 lists and HNSW (M 16-32, efSearch up to 256) both stayed under 0.93
recall@10 on these embeddings, which have little cluster structure.

Deterministic: the product quantizer is trained (k-means, faiss's fixed seed, one thread)
on the file's first `train_rows(threshold)` rows, which never change (the file is
append-only) and exist whenever the index does, so a row's code depends only on the file,
not on when or in which process the index was built.

In memory only, derived from `vectors.f32`, never the source of truth: built on first use
after the cache passes the threshold (never on open; about 1.7 s at 100k rows here),
extended by the rows appended since (ours or another process's, picked up by the cache's
refresh; about 10 us a row). Dead rows (overwritten, removed) keep their codes and are
ruled out by the caller's row mask, as the exact scan rules them out by score.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np


INDEX_MIN_ROWS = 20_000   # below this many rows (live or not) every search is the exact scan
TRAIN_ROWS = 20_000       # the quantizer is trained on the first rows of the file, at most this many
MIN_TRAIN_ROWS = 1_000    # and at least this many (k-means of 16 centroids wants >= 624 points)
MIN_CANDIDATES = 1_000    # see oversample

_FAISS: list = []   # the faiss module once imported (or None if it cannot be): imported on first use, ~0.1 s


def _faiss():
    if not _FAISS:
        try:
            import faiss
            # one thread: answers must not depend on OpenMP scheduling, and on a busy 2-core machine
            # waking threads costs more than they gain
            faiss.omp_set_num_threads(1)
        except ImportError:   # a required dependency; without it every search stays exact
            faiss = None
        _FAISS.append(faiss)
    return _FAISS[0]


def faiss_module():
    """The faiss module (imported on first use, one thread), or None when it cannot be imported."""
    return _faiss()


def available() -> bool:
    return _faiss() is not None


def oversample(k: int) -> int:
    """Candidates fetched for a top `k`: max(MIN_CANDIDATES, 10k). Measured at 100k synthetic
    hashing-v1 rows: 300 candidates gave recall@10 0.999, 1,000 gave recall@10 1.0 and
    recall@100 0.997, 2,000 recall@100 0.9998. Re-scoring 1,000 rows exactly costs about a
    tenth of the scan."""
    return max(MIN_CANDIDATES, 10 * k)


def neighbour_candidates(k: int) -> int:
    """Candidates fetched for the knowledge layer's neighbour lookup of a top `k` (cosine above its
    threshold): max(MIN_CANDIDATES // 2, 10k), half of `oversample`'s floor. Measured at 100k synthetic
    rows (1,500 fresh records, 14,984 true top-10 neighbours above 0.5): recall 0.99873 / 0.99960 /
    0.99987 / 1.0 with 300 / 400 / 500 / 700 candidates (the deepest true neighbour ranked 630th by PQ
    score); on real commit and hunk text (22k rows) none ranks past 55th. 500 instead of 1,000 saves
    about a third of a write's lookup at 100k (a shorter result list in the scan, half the scattered
    rows to re-score); bench/benchmarks/bench_scale.py keeps measuring the recall."""
    return max(MIN_CANDIDATES // 2, 10 * k)


def threshold(min_rows: int) -> int:
    """The row count from which the index answers, given the cache's setting."""
    return max(min_rows, MIN_TRAIN_ROWS)


def train_rows(min_rows: int) -> int:
    """How many leading rows train the quantizer for an index used from `threshold(min_rows)` rows on."""
    return min(TRAIN_ROWS, threshold(min_rows))


def row_mask(n: int, rows: np.ndarray) -> np.ndarray:
    """A faiss bitmap (little-endian bits, one per row below `n`) with the given rows set."""
    mask = np.zeros(n, dtype=bool)
    mask[rows] = True
    return np.packbits(mask, bitorder="little")


class QuantizedRows:
    """PQ fast-scan codes of rows 0..n-1 of a float32 matrix, searched by inner product under a row mask."""

    def __init__(self, dim: int, n_train: int) -> None:
        self.dim, self.n_train = dim, n_train
        self._index = self._coarse = None
        self.n = 0  # rows coded so far

    def catch_up(self, n: int, span: Callable[[int, int], np.ndarray]) -> None:
        """Code rows [self.n, n), read as `span(start, stop)` (training first, from the leading rows)."""
        faiss = _faiss()
        if self._index is None:
            self._coarse = faiss.IndexFlatIP(self.dim)   # one list: kept alive beside the index
            subs = self.dim // 2 if self.dim % 2 == 0 else self.dim   # 2 dimensions per 4-bit code
            index = faiss.IndexIVFPQFastScan(self._coarse, self.dim, 1, subs, 4, faiss.METRIC_INNER_PRODUCT)
            index.by_residual = False
            index.pq.cp.seed = 1234
            index.train(np.ascontiguousarray(span(0, self.n_train), dtype=np.float32))
            self._index = index
        for start in range(self.n, n, 65_536):  # bounded copies out of the mmap
            self._index.add(np.ascontiguousarray(span(start, min(n, start + 65_536)), dtype=np.float32))
        self.n = max(self.n, n)

    def search(self, queries: np.ndarray, count: int, bitmap: np.ndarray) -> np.ndarray:
        """Rows (one array per query, best approximate score first) of up to `count` rows whose
        bit is set in `bitmap` (see `row_mask`)."""
        faiss = _faiss()
        sel = faiss.IDSelectorBitmap(len(bitmap), faiss.swig_ptr(bitmap))
        _, found = self._index.search(np.ascontiguousarray(queries, dtype=np.float32), int(count),
                                      params=faiss.SearchParametersIVF(sel=sel, nprobe=1))
        return [r[r >= 0] for r in found]
