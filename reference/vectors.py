"""The unified vector cache: float32 rows keyed by `key_hash`, in two append-only files.

    vectors.f32   64-byte header, then rows of `dim` little-endian float32
                  header: magic b"CMVECF32", u32 format version (1), u32 dim,
                          32 bytes embedder name (UTF-8, NUL padded), 16 zero bytes
    vectors.keys  one little-endian u64 key hash per row, same order

Row i of `vectors.f32` belongs to key i of `vectors.keys`; the rows load with
`np.memmap(path, "<f4", offset=64, shape=(n, dim))`. Rows are L2-normalised on
`put`, so a dot product is the cosine. A re-put appends and the latest row of a
key wins; `remove` appends an all-zero row (a tombstone, which `put` can never
write since a zero vector cannot be normalised).

Appends hold an exclusive `fcntl.flock` on `vectors.keys` (plus a thread lock)
and write the row before the key, so a reader that counts keys never sees a
key without its row. Every read first checks the size of `vectors.keys` and
picks up rows that another process appended. On open, a torn tail (a partial
row or key, or rows without keys) is cut back to the last complete pair.
"""
from __future__ import annotations

import fcntl
import logging
import os
import struct
import threading
from pathlib import Path

import numpy as np

from reference.errors import CorruptData, StoreError

log = logging.getLogger(__name__)

MAGIC = b"CMVECF32"
VERSION = 1
HEADER = struct.Struct("<8sII32s16x")
HEADER_SIZE = HEADER.size  # 64


class VectorDimMismatch(StoreError, ValueError):
    """A vector's dimension differs from the store's recorded dimension."""


class VectorModelMismatch(StoreError):
    """The store's vectors were made by a different embedder than the one given."""


class VectorCache:
    """Vectors of one dimension, keyed by u64 hash, persisted under `data_dir`."""

    def __init__(self, data_dir: str | Path, dim: int, *, model: str = "") -> None:
        if dim <= 0:
            raise ValueError(f"vector dimension must be positive, got {dim}")
        self.dir = Path(data_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.dim, self.model = int(dim), model
        self.rows_path, self.keys_path = self.dir / "vectors.f32", self.dir / "vectors.keys"
        self._row_bytes = 4 * self.dim
        self._vfd = os.open(self.rows_path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        self._kfd = os.open(self.keys_path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        self._lock = threading.RLock()
        self._n = 0  # rows indexed so far
        self._keys = np.zeros(1024, dtype=np.uint64)
        self._live = np.zeros(1024, dtype=bool)  # row is its key's latest and not a tombstone
        self._latest: dict[int, int] = {}
        self._mat: np.ndarray | None = None
        self._sorted: tuple[np.ndarray, np.ndarray] | None = None
        self.recovered_bytes = 0
        with self._lock, _Flock(self._kfd):
            self._check_header()
            self._recover()
            self._sync()

    # -- writing -----------------------------------------------------------------
    def put(self, key_hash: int, vec: np.ndarray) -> None:
        """Store `vec` (normalised here) as the latest row of `key_hash`."""
        self.put_many([key_hash], np.asarray(vec, dtype=np.float32).reshape(1, -1))

    def put_many(self, key_hashes: list[int] | np.ndarray, vecs: np.ndarray) -> None:
        """Store several rows in one locked append (row i for key i)."""
        vecs = np.asarray(vecs, dtype=np.float32)
        if vecs.ndim != 2 or vecs.shape[1] != self.dim:
            raise VectorDimMismatch(f"{self.rows_path}: vectors of shape {vecs.shape} do not match dimension {self.dim}")
        keys = np.asarray([_u64(k) for k in key_hashes], dtype=np.uint64)
        if len(keys) != len(vecs):
            raise ValueError(f"{len(keys)} keys for {len(vecs)} vectors")
        if not np.isfinite(vecs).all():
            raise ValueError("vectors must be finite (found NaN or inf)")
        norms = np.linalg.norm(vecs, axis=1)
        if (norms == 0).any():
            raise ValueError(f"cannot store a zero vector (key {int(keys[np.argmax(norms == 0)])})")
        self._append(keys, vecs / norms[:, None])

    def remove(self, key_hash: int) -> bool:
        """Drop `key_hash` (appends a tombstone); False if it had no live row."""
        return self.remove_many([key_hash]) == 1

    def remove_many(self, key_hashes: list[int]) -> int:
        """Drop several keys in one append; return how many had a live row."""
        with self._lock:
            self._sync()
            live = []
            for k in dict.fromkeys(_u64(k) for k in key_hashes):
                row = self._latest.get(k)
                if row is not None and self._live[row]:
                    live.append(k)
            if live:
                self._append(np.asarray(live, dtype=np.uint64), np.zeros((len(live), self.dim), np.float32))
            return len(live)

    def _append(self, keys: np.ndarray, rows: np.ndarray) -> None:
        data = np.ascontiguousarray(rows, dtype="<f4").tobytes()
        with self._lock, _Flock(self._kfd):
            self._recover()  # a writer that crashed mid-append would misalign every later row
            _write_all(self._vfd, data)  # rows first: a key on disk always has its row
            _write_all(self._kfd, keys.astype("<u8").tobytes())
            self._sync()

    # -- reading -----------------------------------------------------------------
    def get(self, key_hash: int) -> np.ndarray | None:
        """A copy of the latest row of `key_hash`, or None."""
        with self._lock:
            self._sync()
            row = self._latest.get(_u64(key_hash))
            if row is None or not self._live[row]:
                return None
            return np.array(self._matrix()[row])

    def keys(self) -> np.ndarray:
        """Live key hashes, ascending (uint64)."""
        with self._lock:
            self._sync()
            return self._index()[0].copy()

    def __len__(self) -> int:
        with self._lock:
            self._sync()
            return int(self._live[: self._n].sum())

    def __contains__(self, key_hash: int) -> bool:
        return self.get(key_hash) is not None

    def scores(self, query_vec: np.ndarray, key_hashes: list[int] | np.ndarray) -> np.ndarray:
        """Cosine of the query with each key's row; NaN where a key has no live row."""
        q = self._query(query_vec)
        with self._lock:
            self._sync()
            rows, found = self._rows_for(np.asarray([_u64(k) for k in key_hashes], dtype=np.uint64))
            out = np.full(len(found), np.nan, dtype=np.float32)
            if rows.size:
                out[found] = _dot(self._matrix()[rows], q)
            return out

    def topk(self, query_vec: np.ndarray, k: int, allowed: np.ndarray | None = None, *,
             with_ties: bool = False) -> list[tuple[int, float]]:
        """The `k` best (key_hash, cosine), best first, ties by key ascending.

        `allowed` restricts the candidates to those key hashes. With `with_ties`,
        every key scoring equal to the k-th is kept too (so a caller can re-break
        ties by its own id order and still be exact).
        """
        if k <= 0:
            return []
        q = self._query(query_vec)
        with self._lock:
            self._sync()
            if allowed is None:
                live_rows = np.flatnonzero(self._live[: self._n])
            else:
                live_rows, _ = self._rows_for(np.unique(np.asarray(allowed, dtype=np.uint64)))
            if live_rows.size == 0:
                return []
            mat = self._matrix()
            scores = _dot(mat[live_rows], q) if allowed is not None else _dot(mat, q)[live_rows]
            keys = self._keys[live_rows]
        if k < len(scores):
            kth = np.partition(scores, len(scores) - k)[len(scores) - k]
            sel = np.flatnonzero(scores >= kth)
        else:
            sel = np.arange(len(scores))
        order = sel[np.lexsort((keys[sel], -scores[sel]))]
        if not with_ties:
            order = order[:k]
        elif k < len(order):
            order = order[scores[order] >= scores[order[k - 1]]]
        return [(int(keys[i]), float(scores[i])) for i in order]

    def stats(self) -> dict[str, int]:
        with self._lock:
            self._sync()
            return {"rows": self._n, "live": int(self._live[: self._n].sum()), "dim": self.dim,
                    "bytes_rows": os.fstat(self._vfd).st_size, "bytes_keys": os.fstat(self._kfd).st_size}

    def close(self) -> None:
        with self._lock:
            self._mat = None
            for fd in (self._vfd, self._kfd):
                if fd >= 0:
                    os.close(fd)
            self._vfd = self._kfd = -1

    # -- internals -----------------------------------------------------------------
    def _query(self, query_vec: np.ndarray) -> np.ndarray:
        q = np.asarray(query_vec, dtype=np.float32).reshape(-1)
        if q.shape[0] != self.dim:
            raise VectorDimMismatch(f"query vector has dimension {q.shape[0]}, the store's is {self.dim}")
        norm = float(np.linalg.norm(q))
        return q / norm if norm > 0 else q

    def _check_header(self) -> None:
        size = os.fstat(self._vfd).st_size
        name = self.model.encode("utf-8")[:32]
        if size < HEADER_SIZE and os.fstat(self._kfd).st_size == 0:
            # new store, or a creation torn inside the header: no row can exist yet
            os.ftruncate(self._vfd, 0)
            _write_all(self._vfd, HEADER.pack(MAGIC, VERSION, self.dim, name))
            return
        head = os.pread(self._vfd, HEADER_SIZE, 0)
        if len(head) < HEADER_SIZE:
            raise CorruptData(f"{self.rows_path}: header is cut short ({len(head)} of {HEADER_SIZE} bytes)")
        magic, version, dim, stored = HEADER.unpack(head)
        if magic != MAGIC or version != VERSION:
            raise CorruptData(f"{self.rows_path}: not a version {VERSION} vector file (magic {magic!r}, version {version})")
        if dim != self.dim:
            raise VectorDimMismatch(f"{self.rows_path}: store holds {dim}-dimensional vectors, embedder gives {self.dim}")
        stored_name = stored.rstrip(b"\0").decode("utf-8", "replace")
        if self.model and stored_name and stored_name != self.model[:32]:
            raise VectorModelMismatch(
                f"{self.rows_path}: vectors were made by embedder {stored_name!r}, not {self.model!r}; "
                "open with the same embedder (or rebuild the vectors)"
            )
        self.model = self.model or stored_name

    def _recover(self) -> None:
        vsize, ksize = os.fstat(self._vfd).st_size, os.fstat(self._kfd).st_size
        n = min(ksize // 8, (vsize - HEADER_SIZE) // self._row_bytes)
        vkeep, kkeep = HEADER_SIZE + n * self._row_bytes, n * 8
        dropped = (vsize - vkeep) + (ksize - kkeep)
        if dropped and n < self._n:
            raise CorruptData(f"{self.dir}: vector files shrank below the {self._n} rows already read")
        if dropped:
            os.ftruncate(self._vfd, vkeep)
            os.ftruncate(self._kfd, kkeep)
            self.recovered_bytes += dropped
            log.warning("%s: dropped %d bytes of torn vector tail, %d rows kept", self.dir, dropped, n)

    def _sync(self) -> None:
        """Index rows appended since the last look (ours or another process's)."""
        n_new = os.fstat(self._kfd).st_size // 8
        if n_new <= self._n:
            return
        count = n_new - self._n
        keys = np.frombuffer(os.pread(self._kfd, count * 8, self._n * 8), dtype="<u8").astype(np.uint64)
        raw = os.pread(self._vfd, count * self._row_bytes, HEADER_SIZE + self._n * self._row_bytes)
        rows = np.frombuffer(raw, dtype="<f4").reshape(count, self.dim)
        tomb = ~rows.any(axis=1)
        self._grow(n_new)
        self._keys[self._n: n_new] = keys
        for i, key in enumerate(keys.tolist()):
            row = self._n + i
            old = self._latest.get(key)
            if old is not None:
                self._live[old] = False
            self._latest[key] = row
            self._live[row] = not tomb[i]
        self._n = n_new
        self._sorted = None

    def _grow(self, n: int) -> None:
        if n <= len(self._keys):
            return
        cap = max(n, 2 * len(self._keys))
        self._keys = np.resize(self._keys, cap)
        live = np.zeros(cap, dtype=bool)
        live[: len(self._live)] = self._live
        self._live = live

    def _matrix(self) -> np.ndarray:
        if self._mat is None or self._mat.shape[0] != self._n:
            if self._n == 0:
                return np.zeros((0, self.dim), dtype=np.float32)
            self._mat = np.memmap(self.rows_path, dtype="<f4", mode="r", offset=HEADER_SIZE, shape=(self._n, self.dim))
        return self._mat

    def _index(self) -> tuple[np.ndarray, np.ndarray]:
        """(live keys ascending, their rows)."""
        if self._sorted is None:
            rows = np.flatnonzero(self._live[: self._n])
            keys = self._keys[rows]
            order = np.argsort(keys, kind="stable")
            self._sorted = (keys[order], rows[order])
        return self._sorted

    def _rows_for(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Rows of the given keys that are live, and a mask of which keys were found."""
        skeys, srows = self._index()
        if skeys.size == 0 or keys.size == 0:
            return np.zeros(0, dtype=np.int64), np.zeros(len(keys), dtype=bool)
        pos = np.minimum(np.searchsorted(skeys, keys), skeys.size - 1)
        found = skeys[pos] == keys
        return srows[pos[found]], found


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


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


class _Flock:
    def __init__(self, fd: int) -> None:
        self.fd = fd

    def __enter__(self) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_EX)

    def __exit__(self, *exc: object) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_UN)
