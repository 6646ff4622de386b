"""The unified vector cache: float32 rows keyed by `key_hash`, each with a u8 tag.

Files and their layout are in `vectors/files.py` (and reference/README.md).
Rows are L2-normalised on `put`, so a dot product is the cosine. A re-put
appends and the latest row of a key wins; `remove` appends an all-zero row (a
tombstone, which `put` can never write since a zero vector cannot be
normalised). The tag is the caller's label for a row (the store records the
entity kind) so that `topk(..., tags=...)` can restrict a search without
asking anyone which key is what.

Every read first checks the size of `vectors.keys` and picks up rows that
another process appended. Scores are exact cosine, computed with `np.einsum`.
Above `vector_index.INDEX_MIN_ROWS` rows (or the cache's `index_min_rows`), `topk`
takes its candidates from a quantized in-memory index (`vectors/index.py`) and
re-scores them exactly: the cosines returned are the exact path's, the choice of
candidates is approximate (recall measured in bench/benchmarks/bench_scale.py).

Integrity (issue 11): every row's checksum (vectors/files.py) is checked when
the row is indexed, which is on open and whenever rows appended since are
picked up (the same moments the mmap is refreshed). A row that fails makes
every read of the cache raise `CorruptData` naming the files, the row and its
key: a damaged key may have been any key, so no answer could be trusted to be
the original one. Writes still work; `codemem-bench verify` lists the rows.
"""
from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from reference.vectors import index as vector_index
from reference.vectors.indexed import IndexedSearch
from reference.vectors.rows import RecentRows
from reference.vectors.selection import RowSelections, tag_key
from reference.vectors.sync import RowSync
from reference.vectors.files import VectorDimMismatch, VectorFiles, VectorModelMismatch

__all__ = ["VectorCache", "VectorDimMismatch", "VectorModelMismatch"]


class VectorCache(RowSync, RowSelections, IndexedSearch):
    """Vectors of one dimension, keyed by u64 hash, persisted under `data_dir`."""

    def __init__(self, data_dir: str | Path, dim: int, *, model: str = "") -> None:
        if dim <= 0:
            raise ValueError(f"vector dimension must be positive, got {dim}")
        self.dir = Path(data_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.dim = int(dim)
        self._files = VectorFiles(self.dir, self.dim, model)
        self.rows_path, self.keys_path = self._files.rows_path, self._files.keys_path
        self._lock = threading.RLock()
        self._n = 0  # rows indexed so far
        self._keys = np.zeros(0, dtype=np.uint64)
        self._tags = np.zeros(0, dtype=np.uint8)
        self._live = np.zeros(0, dtype=bool)  # row is its key's latest and not a tombstone
        self._latest: dict[int, int] = {}
        self._mat: np.ndarray | None = None
        self._sorted: tuple[np.ndarray, np.ndarray] | None = None
        self._selections: dict = {}  # tags -> (rows, other rows), see _selection
        self._bitmaps: dict = {}  # tags -> faiss bitmap of those rows, kept like _selections
        self._quantized: vector_index.QuantizedRows | None = None  # built on first use above the threshold
        self._recent = RecentRows(self.dim)  # the index path's gathers (vectors/rows.py)
        self.index_min_rows: int | None = None  # None: vector_index.INDEX_MIN_ROWS (read at each search)
        self.bad_rows: dict[int, int] = {}  # row -> key as stored, for rows failing their checksum
        with self._lock, self._files.locked():
            self.model = self._files.check_header()
            self._files.backfill_sums()
            self._files.repair(0)
            self._sync()

    @property
    def recovered_bytes(self) -> int:
        return self._files.recovered_bytes

    # -- writing -----------------------------------------------------------------
    def put(self, key_hash: int, vec: np.ndarray, tag: int = 0) -> None:
        """Store `vec` (normalised here) as the latest row of `key_hash`, labelled `tag` (0-255)."""
        self.put_many([key_hash], np.asarray(vec, dtype=np.float32).reshape(1, -1), tag)

    def put_many(self, key_hashes: Sequence[int] | np.ndarray, vecs: np.ndarray,
                 tags: int | Sequence[int] = 0) -> None:
        """Store several rows in one locked append (row i for key i; one tag or one per row)."""
        vecs = np.asarray(vecs, dtype=np.float32)
        if vecs.ndim != 2 or vecs.shape[1] != self.dim:
            raise VectorDimMismatch(f"{self.rows_path}: vectors of shape {vecs.shape} "
                                    f"do not match dimension {self.dim}")
        keys = np.asarray([_u64(k) for k in key_hashes], dtype=np.uint64)
        if len(keys) != len(vecs):
            raise ValueError(f"{len(keys)} keys for {len(vecs)} vectors")
        if isinstance(tags, (int, np.integer)):   # one tag for all (a single write): checked as a number
            if not 0 <= tags <= 255:
                raise ValueError(f"tags must be in 0..255, got {tags!r}")
            tag_arr = np.full(len(keys), tags, dtype=np.uint8)
        else:
            tag_arr = np.broadcast_to(np.asarray(tags), (len(keys),))
            if ((tag_arr < 0) | (tag_arr > 255)).any():
                raise ValueError(f"tags must be in 0..255, got {tags!r}")
        if not np.isfinite(vecs).all():
            raise ValueError("vectors must be finite (found NaN or inf)")
        norms = np.sqrt(np.add.reduce(vecs * vecs, axis=1))   # np.linalg.norm's own steps, without its wrapper
        if (norms == 0).any():
            raise ValueError(f"cannot store a zero vector (key {int(keys[np.argmax(norms == 0)])})")
        self._append(keys, vecs / norms[:, None], tag_arr.astype(np.uint8))

    def remove(self, key_hash: int) -> bool:
        """Drop `key_hash` (appends a tombstone); False if it had no live row."""
        return self.remove_many([key_hash]) == 1

    def remove_many(self, key_hashes: Sequence[int]) -> int:
        """Drop several keys in one append; return how many had a live row."""
        with self._lock:
            self._sync()
            live = [k for k in dict.fromkeys(_u64(k) for k in key_hashes)
                    if (row := self._latest.get(k)) is not None and self._live[row]]
            if live:
                self._append(np.asarray(live, dtype=np.uint64), np.zeros((len(live), self.dim), np.float32),
                             np.zeros(len(live), dtype=np.uint8))
            return len(live)

    def _append(self, keys: np.ndarray, rows: np.ndarray, tags: np.ndarray) -> None:
        with self._lock, self._files.locked():
            # a writer that crashed mid-append would misalign every later row; rows another process
            # appended first are read (and checked) as usual
            self._sync(self._files.repair(self._n))
            rows = np.ascontiguousarray(rows, dtype="<f4")
            self._files.append(keys, rows, tags)
            # ours are indexed from memory, as written: the bytes just written are these
            self._take(keys, rows, tags, None)

    # -- reading -----------------------------------------------------------------
    def get(self, key_hash: int) -> np.ndarray | None:
        """A copy of the latest row of `key_hash`, or None."""
        with self._lock:
            self._sync_checked()
            row = self._latest.get(_u64(key_hash))
            if row is None or not self._live[row]:
                return None
            return self._recent.gather(np.array([row]), self._n, self._matrix)[0]

    def tag(self, key_hash: int) -> int | None:
        """The tag of a key's live row, or None."""
        with self._lock:
            self._sync_checked()
            row = self._latest.get(_u64(key_hash))
            return None if row is None or not self._live[row] else int(self._tags[row])

    def keys(self) -> np.ndarray:
        """Live key hashes, ascending (uint64)."""
        with self._lock:
            self._sync_checked()
            return self._index()[0].copy()

    def __len__(self) -> int:
        with self._lock:
            self._sync_checked()
            return int(self._live[: self._n].sum())

    def __contains__(self, key_hash: int) -> bool:
        return self.get(key_hash) is not None

    def scores(self, query_vec: np.ndarray, key_hashes: Sequence[int] | np.ndarray) -> np.ndarray:
        """Cosine of the query with each key's row; NaN where a key has no live row."""
        q = self._query(query_vec)
        with self._lock:
            self._sync_checked()
            keys = key_hashes if isinstance(key_hashes, np.ndarray) and key_hashes.dtype == np.uint64 else \
                np.asarray([_u64(k) for k in key_hashes], dtype=np.uint64)   # a uint64 array needs no check
            rows, found = self._rows_for(keys)
            out = np.full(len(found), np.nan, dtype=np.float32)
            if rows.size:
                out[found] = self._scores_of(rows, q)
            return out

    def topk(self, query_vec: np.ndarray, k: int, allowed: np.ndarray | None = None, *,
             tags: Sequence[int] | None = None, with_ties: bool = False) -> list[tuple[int, float]]:
        """The `k` best (key_hash, cosine), best first, ties by key ascending.

        `allowed` restricts the candidates to those key hashes, `tags` to rows
        carrying one of those tags. With `with_ties`, every key scoring equal to
        the k-th is kept too (so a caller can re-break ties by its own id order).
        """
        keys, cos = self.topk_arrays(query_vec, k, allowed, tags=tags, with_ties=with_ties)
        return list(zip(keys.tolist(), cos.tolist()))

    def topk_arrays(self, query_vec: np.ndarray, k: int, allowed: np.ndarray | None = None, *,
                    tags: Sequence[int] | None = None, with_ties: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """`topk` as two arrays, (key hashes uint64, cosines float32), best first: for callers that go on in
        numpy (the lexical layer maps the keys to its rows), without a Python pair per row."""
        if k <= 0:
            return _NO_KEYS, _NO_SCORES
        q = self._query(query_vec)
        with self._lock:
            self._sync_checked()
            if allowed is None:
                if q.any() and self._index_ready():
                    bitmap, qualifying = self._bitmap(tags)
                    if self._use_index(qualifying, vector_index.oversample(k)):
                        return self._topk_indexed(q, k, bitmap, with_ties)
                rows, excluded = self._selection(tags)
                if rows.size == 0:
                    return _NO_KEYS, _NO_SCORES
                if excluded is not None:  # most rows qualify: score them all, rule the others out
                    scores = self._dot_all(q)
                    scores[excluded] = -np.inf
                    return self._best(scores, None, min(k, rows.size), with_ties)
            else:
                rows = self._allowed_rows(allowed, tags)
                if rows.size == 0:
                    return _NO_KEYS, _NO_SCORES
                if q.any() and self._use_index(rows.size, vector_index.oversample(k)):
                    return self._topk_indexed(q, k, vector_index.row_mask(self._n, rows), with_ties)
                return self._best(self._allowed_scores(allowed, tags, rows, q), rows, min(k, rows.size), with_ties)
            return self._best(self._scores_of(rows, q), rows, min(k, rows.size), with_ties)

    def _best(self, scores: np.ndarray, rows: np.ndarray | None, k: int, with_ties: bool
              ) -> tuple[np.ndarray, np.ndarray]:
        """Top `k` of `scores` (row i's score, or rows[i]'s), as `topk_arrays` returns them."""
        if k < scores.size:
            kth = np.partition(scores, scores.size - k)[scores.size - k]
            sel = np.flatnonzero(scores >= kth)
        else:
            sel = np.arange(scores.size)
        keys = self._keys[sel if rows is None else rows[sel]]
        vals = scores[sel]
        order = np.lexsort((keys, -vals))
        if not with_ties:
            order = order[:k]
        elif k < len(order):
            order = order[vals[order] >= vals[order[k - 1]]]
        return keys[order], vals[order]

    def scan(self, query_vec: np.ndarray, allowed: np.ndarray | None = None, *,
             tags: Sequence[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(keys, cosines) of every live candidate row, in row order (`allowed` and `tags` as in
        `topk`), for callers that weigh every candidate's score themselves (Memory Lane)."""
        q = self._query(query_vec)
        with self._lock:
            self._sync_checked()   # rows are verified against vectors.sums before any is scored
            if allowed is None:
                rows, excluded = self._selection(tags)
                if excluded is not None and excluded.size == 0:  # every row: no gathers
                    return self._keys[: self._n].copy(), self._dot_all(q)
            else:
                rows = self._allowed_rows(allowed, tags)
            if rows.size == 0:
                return np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.float32)
            return self._keys[rows], self._scores_of(rows, q)

    def snapshot(self, tags: Sequence[int] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(matrix of every row so far, live rows carrying one of `tags` (all tags if None), their keys).

        For callers scoring many queries at once (the knowledge layer's batch neighbours):
        rows are checked like every read; the matrix is a read-only view that later appends
        do not change (rows only grow). The keys are kept (read-only) until rows are added:
        the knowledge layer asks once per write.
        """
        with self._lock:
            self._sync_checked()
            rows, _ = self._selection(tags)
            cached = ("keys", tag_key(tags))
            keys = self._selections.get(cached)
            if keys is None:
                keys = self._selections[cached] = self._keys[rows]
                keys.flags.writeable = False
            return self._matrix(), rows, keys

    def rows_of(self, key_hashes: Sequence[int] | np.ndarray) -> np.ndarray:
        """The live row index of each key (-1 where it has none), for use with `snapshot`'s matrix."""
        with self._lock:
            self._sync_checked()
            out = np.full(len(key_hashes), -1, dtype=np.int64)
            for i, k in enumerate(key_hashes):
                row = self._latest.get(_u64(k))
                if row is not None and self._live[row]:
                    out[i] = row
            return out

    def row_count(self) -> int:
        """Rows in the files so far, live or not (the width of `scan_products`' answer)."""
        with self._lock:
            self._sync()
            return self._n

    def stats(self) -> dict[str, int]:
        with self._lock:
            self._sync()
            return {"rows": self._n, "live": int(self._live[: self._n].sum()), "dim": self.dim,
                    **self._files.sizes()}

    def close(self) -> None:
        with self._lock:
            self._mat = self._quantized = None
            self._recent = RecentRows(self.dim)
            self._files.close()

    # -- internals -----------------------------------------------------------------
    def _query(self, query_vec: np.ndarray) -> np.ndarray:
        q = np.asarray(query_vec, dtype=np.float32).reshape(-1)
        if q.shape[0] != self.dim:
            raise VectorDimMismatch(f"query vector has dimension {q.shape[0]}, the store's is {self.dim}")
        norm = float(np.linalg.norm(q))
        return q / norm if norm > 0 else q

    def _scores_of(self, rows: np.ndarray, q: np.ndarray) -> np.ndarray:
        """Cosines of the given rows: gathered when few, else all rows scored and indexed
        (copying most of the matrix to gather it costs more than scoring it all). Gathered from a
        plain ndarray view: np.memmap's own indexing costs about 0.2 ms a call."""
        if rows.size * 3 < self._n:
            return _dot(self._recent.gather(rows, self._n, self._matrix), q)
        return self._dot_all(q)[rows]

    def _dot_all(self, q: np.ndarray) -> np.ndarray:
        """Cosines of every row so far: `_dot` over the mapping kept across appends and the rows
        appended since (`RecentRows.pieces`), not a fresh mapping (and its page faults) after
        each write. Bit-identical to `_dot` over the whole matrix: einsum computes each row's
        sum on its own, whatever the rows around it."""
        pieces = self._recent.pieces(self._n, self._matrix)
        return _dot(pieces[0], q) if len(pieces) == 1 else np.concatenate([_dot(p, q) for p in pieces])


_NO_KEYS = np.zeros(0, dtype=np.uint64)     # topk_arrays' empty answer (read-only)
_NO_SCORES = np.zeros(0, dtype=np.float32)
_NO_KEYS.flags.writeable = _NO_SCORES.flags.writeable = False


def _dot(mat: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Row-wise dot products without BLAS.

    Measured here: multithreaded OpenBLAS gemv took 11-16 ms at 10k x 256 on a
    busy 2-core machine against 1-2 ms for einsum's single-threaded loop, and
    einsum's sums do not depend on how many BLAS threads happen to run.
    """
    return np.einsum("ij,j->i", mat, q)


def _u64(k: int) -> int:
    k = int(k)
    if not 0 <= k < 1 << 64:
        raise ValueError(f"key hash {k} is not an unsigned 64-bit integer")
    return k
