"""The four append-only files behind `VectorCache`, their header, row checksums, locking and torn-tail repair.

    vectors.f32   64-byte header, then rows of `dim` little-endian float32
                  header: magic b"CMVECF32", u32 format version (2), u32 dim,
                          32 bytes embedder name (UTF-8, NUL padded), 16 zero bytes
    vectors.tags  one u8 per row: the caller's tag (the store's entity kind), 0 = none
    vectors.keys  one little-endian u64 key hash per row
    vectors.sums  one little-endian u32 checksum per row (issue 11), see `row_sums`

Row i of each file belongs together. An append writes the rows, then the
tags, then the sums, then the keys, all under an exclusive `flock` on
`vectors.keys`, so a reader that counts keys never sees a key without its
row, tag and sum. `repair` cuts a torn tail (a partial row, tag, sum or key,
or rows without keys) back to the last complete row; it runs on open and
before every append.

A row's checksum covers its key, tag and vector: the u32 words
(key lo, key hi, tag, vector words...) each times a fixed odd weight, summed
mod 2**32. Any one changed 32-bit word changes the sum (an odd weight is
invertible mod 2**32), so every single-byte flip in any of the four files is
caught; it is an error-detecting code computed with numpy at C speed, not a
cryptographic hash. A store written before `vectors.sums` existed gets its
sums computed on first open (its rows are trusted as they are then).
"""
from __future__ import annotations

import fcntl
import functools
import logging
import os
import struct
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from reference.errors import CorruptData, StoreError
from reference.manifest.store_files import recorded_rows, vector_damage

log = logging.getLogger(__name__)

MAGIC = b"CMVECF32"
VERSION = 2
HEADER = struct.Struct("<8sII32s16x")
HEADER_SIZE = HEADER.size  # 64


class VectorDimMismatch(StoreError, ValueError):
    """A vector's dimension differs from the store's recorded dimension."""


class VectorModelMismatch(StoreError):
    """The store's vectors were made by a different embedder than the one given."""


class VectorFiles:
    """Raw access to `vectors.f32`, `vectors.tags` and `vectors.keys` in one directory."""

    def __init__(self, directory: Path, dim: int, model: str) -> None:
        self.dir, self.dim, self.model = directory, dim, model
        self.rows_path = directory / "vectors.f32"
        self.tags_path = directory / "vectors.tags"
        self.keys_path = directory / "vectors.keys"
        self.sums_path = directory / "vectors.sums"
        self.row_bytes = 4 * dim
        flags = os.O_RDWR | os.O_CREAT | os.O_APPEND
        self.legacy = not self.sums_path.exists()  # written before row checksums: backfilled on open
        self._vfd = os.open(self.rows_path, flags, 0o644)
        self._tfd = os.open(self.tags_path, flags, 0o644)
        self._sfd = os.open(self.sums_path, flags, 0o644)
        self._kfd = os.open(self.keys_path, flags, 0o644)
        self.recovered_bytes = 0

    @contextmanager
    def locked(self) -> Iterator[None]:
        fcntl.flock(self._kfd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(self._kfd, fcntl.LOCK_UN)

    def count(self) -> int:
        """Rows whose key has been written."""
        return os.fstat(self._kfd).st_size // 8

    def check_header(self) -> str:
        """Write the header of a new file, or check an existing one; return the embedder name."""
        size = os.fstat(self._vfd).st_size
        name = self.model.encode("utf-8")[:32]
        if size < HEADER_SIZE and self.count() == 0:
            os.ftruncate(self._vfd, 0)  # new, or creation torn inside the header: no row can exist yet
            _write_all(self._vfd, HEADER.pack(MAGIC, VERSION, self.dim, name))
            return self.model
        head = os.pread(self._vfd, HEADER_SIZE, 0)
        if len(head) < HEADER_SIZE:
            raise CorruptData(f"{self.rows_path}: header is cut short ({len(head)} of {HEADER_SIZE} bytes)")
        magic, version, dim, stored = HEADER.unpack(head)
        if magic != MAGIC or version != VERSION:
            raise CorruptData(f"{self.rows_path}: not a version {VERSION} vector file "
                              f"(magic {magic!r}, version {version})")
        if dim != self.dim:
            raise VectorDimMismatch(f"{self.rows_path}: store holds {dim}-dimensional vectors, "
                                    f"embedder gives {self.dim}")
        stored_name = stored.rstrip(b"\0").decode("utf-8", "replace")
        if self.model and stored_name and stored_name != self.model[:32]:
            raise VectorModelMismatch(
                f"{self.rows_path}: vectors were made by embedder {stored_name!r}, not {self.model!r}; "
                "open with the same embedder (or rebuild the vectors)"
            )
        return self.model or stored_name

    def backfill_sums(self) -> None:
        """Give a store written before `vectors.sums` a checksum per complete row (lock held)."""
        if not self.legacy or os.fstat(self._sfd).st_size:
            return
        vsize, tsize, ksize = (os.fstat(fd).st_size for fd in (self._vfd, self._tfd, self._kfd))
        n = min(ksize // 8, tsize, max(0, vsize - HEADER_SIZE) // self.row_bytes)
        for start in range(0, n, 65536):
            keys, rows, tags = self._read_raw(start, min(65536, n - start))
            _write_all(self._sfd, self.row_sums(keys, rows, tags).astype("<u4").tobytes())
        self.legacy = False
        log.info("%s: computed row checksums for %d rows written before vectors.sums existed", self.dir, n)

    def repair(self, known_rows: int) -> int:
        """Cut the four files back to their last complete row (call with the lock held); return the
        rows they then hold (`count()`, without asking again)."""
        fstat = os.fstat
        vsize, tsize, ssize, ksize = (fstat(self._vfd).st_size, fstat(self._tfd).st_size,
                                      fstat(self._sfd).st_size, fstat(self._kfd).st_size)
        n = min(ksize // 8, tsize, ssize // 4, (vsize - HEADER_SIZE) // self.row_bytes)
        keep = (HEADER_SIZE + n * self.row_bytes, n, n * 4, n * 8)
        if (vsize, tsize, ssize, ksize) == keep:
            return n
        # a torn append leaves vectors.keys (written last) the shortest; anything else is damage, and cutting
        # the others down to it would lose their rows (issue 25). On open, the manifest's count also tells a
        # cut key file from a torn append (reference/manifest/store_files.py).
        damage = vector_damage({"vectors.f32": vsize, "vectors.tags": tsize, "vectors.sums": ssize,
                                "vectors.keys": ksize}, self.dim,
                               recorded_rows(self.dir, self.dim) if known_rows == 0 else None)
        if damage is not None:
            raise CorruptData(f"{self.dir / damage[0]}: {damage[1]}", file=str(self.dir / damage[0]))
        dropped = sum(size - k for size, k in zip((vsize, tsize, ssize, ksize), keep))
        if n < known_rows:
            raise CorruptData(f"{self.dir}: vector files shrank below the {known_rows} rows already read")
        for fd, size in zip((self._vfd, self._tfd, self._sfd, self._kfd), keep):
            os.ftruncate(fd, size)
        self.recovered_bytes += dropped
        log.warning("%s: dropped %d bytes of torn vector tail, %d rows kept", self.dir, dropped, n)
        return n

    def append(self, keys: np.ndarray, rows: np.ndarray, tags: np.ndarray) -> None:
        """Write rows, tags, sums, keys in that order (call with the lock held, after `repair`)."""
        rows = np.ascontiguousarray(rows, dtype="<f4")
        tags = np.ascontiguousarray(tags, dtype=np.uint8)
        keys = np.ascontiguousarray(keys, dtype="<u8")
        _write_all(self._vfd, rows.tobytes())
        _write_all(self._tfd, tags.tobytes())
        _write_all(self._sfd, self.row_sums(keys, rows, tags).astype("<u4").tobytes())
        _write_all(self._kfd, keys.tobytes())

    def read(self, start: int, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(keys uint64, rows float32 (count, dim), tags uint8, ok bool) of rows [start, start+count);
        `ok[i]` is False where row i fails its checksum."""
        keys, rows, tags = self._read_raw(start, count)
        sums = np.frombuffer(os.pread(self._sfd, count * 4, start * 4), dtype="<u4")
        if len(sums) != count:
            raise CorruptData(f"{self.sums_path}: {len(sums)} checksums for {count} rows")
        return keys, rows, tags, self.row_sums(keys, rows, tags) == sums

    def _read_raw(self, start: int, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        keys = np.frombuffer(os.pread(self._kfd, count * 8, start * 8), dtype="<u8").astype(np.uint64)
        raw = os.pread(self._vfd, count * self.row_bytes, HEADER_SIZE + start * self.row_bytes)
        rows = np.frombuffer(raw, dtype="<f4").reshape(count, self.dim)
        tags = np.frombuffer(os.pread(self._tfd, count, start), dtype=np.uint8)
        return keys, rows, tags

    def row_sums(self, keys: np.ndarray, rows: np.ndarray, tags: np.ndarray) -> np.ndarray:
        """The u32 checksum of each row (see the module docstring)."""
        return row_sums(keys, np.ascontiguousarray(rows, dtype="<f4"), tags)

    def memmap(self, n: int) -> np.ndarray:
        return np.memmap(self.rows_path, dtype="<f4", mode="r", offset=HEADER_SIZE, shape=(n, self.dim))

    def sizes(self) -> dict[str, int]:
        return {"bytes_rows": os.fstat(self._vfd).st_size, "bytes_tags": os.fstat(self._tfd).st_size,
                "bytes_keys": os.fstat(self._kfd).st_size, "bytes_sums": os.fstat(self._sfd).st_size}

    def close(self) -> None:
        for fd in (self._vfd, self._tfd, self._sfd, self._kfd):
            if fd >= 0:
                os.close(fd)
        self._vfd = self._tfd = self._sfd = self._kfd = -1


def row_sums(keys: np.ndarray, rows: np.ndarray, tags: np.ndarray) -> np.ndarray:
    """The u32 checksum of each row; `rows` is (n, dim) of any 4-byte dtype, read as its bits."""
    n, dim = rows.shape
    if n == 1:   # a single write's row: one integer dot product (sums mod 2**64 in any order are the same)
        w = _weights(dim)
        total = int(np.dot(np.ascontiguousarray(rows).view("<u4").reshape(-1).astype(np.uint64), w[3:]))
        key = int(keys[0])
        total += (key & 0xFFFFFFFF) * int(w[0]) + (key >> 32) * int(w[1]) + int(tags[0]) * int(w[2])
        return np.array([total & 0xFFFFFFFF], dtype=np.uint32)
    words = np.empty((n, dim + 3), dtype=np.uint64)
    words[:, :2] = np.ascontiguousarray(keys, dtype="<u8").view("<u4").reshape(n, 2)
    words[:, 2] = tags
    words[:, 3:] = np.ascontiguousarray(rows).view("<u4")
    return ((words * _weights(dim)).sum(axis=1, dtype=np.uint64) & 0xFFFFFFFF).astype(np.uint32)


@functools.lru_cache(maxsize=8)
def _weights(dim: int) -> np.ndarray:
    """Fixed odd u32 weights, one per checksummed word (odd: invertible mod 2**32)."""
    i = np.arange(dim + 3, dtype=np.uint64)
    return ((2 * i + 1) * np.uint64(0x9E3779B1)) & np.uint64(0xFFFFFFFF)


def _write_all(fd: int, data: bytes) -> None:
    n = os.write(fd, data)   # a regular file takes it whole but for a full disk or a signal
    if n < len(data):
        view = memoryview(data)[n:]
        while view:
            view = view[os.write(fd, view):]
