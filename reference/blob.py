"""The single append-only `blob.dat`: framed, checksummed records.

Frame layout (little-endian), repeated to the end of the file:

    magic    4 bytes  b"\\xb1\\x0bCM"  (starts with bytes that never begin UTF-8 text)
    length   u32      payload length in bytes
    checksum 8 bytes  BLAKE2b-64 digest of the payload
    payload  `length` bytes

A `BlobRef.offset` is the payload's start, so `read(offset)` finds the header
16 bytes before it. `read_slice(offset, length)` reads a range inside one
record (symbols and chunks point into their file's record).

Appends hold an exclusive `fcntl.flock` (plus a thread lock, since flock does
not exclude threads sharing a descriptor) and always land at the end of file,
so several processes may append. On open the frames are walked; a torn tail
(short header, length past end of file, bad checksum of the last record) is
truncated back to the last whole record and reported in `Blob.recovered`.
A damaged frame that is followed by a valid record is not a torn tail: open
raises `CorruptData` instead of dropping the records after it.
"""
from __future__ import annotations

import bisect
import fcntl
import hashlib
import logging
import mmap
import os
import struct
import threading
from array import array
from dataclasses import dataclass
from pathlib import Path

from reference.errors import CorruptData

log = logging.getLogger(__name__)

MAGIC = b"\xb1\x0bCM"
_HEADER = struct.Struct("<4sI8s")
HEADER_SIZE = _HEADER.size  # 16
MAX_PAYLOAD = 0xFFFFFFFF


def checksum(payload: bytes | memoryview) -> bytes:
    """BLAKE2b with an 8-byte digest: the frame checksum."""
    return hashlib.blake2b(payload, digest_size=8).digest()


def frame(payload: bytes) -> bytes:
    """Header + payload, as written to disk."""
    return _HEADER.pack(MAGIC, len(payload), checksum(payload)) + payload


@dataclass(frozen=True)
class BlobRef:
    """Where a record's payload lives: `offset` is its first byte, `length` its size."""

    offset: int
    length: int


@dataclass(frozen=True)
class RecoveryReport:
    """What opening the blob had to drop: `dropped_bytes` from `truncated_at` on."""

    path: str
    truncated_at: int
    dropped_bytes: int
    reason: str
    records_kept: int


class Blob:
    """Append-only framed record file; see the module docstring for the format."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        self._lock = threading.Lock()
        self._starts = array("q")  # payload offsets of the known records, ascending
        self._lengths = array("q")
        self._end = 0  # end of the last known whole record
        self.recovered: RecoveryReport | None = None
        with self._lock, _Flock(self._fd):
            self.recovered = self._walk(recover=True)

    # -- writing -----------------------------------------------------------------
    def append(self, payload: bytes) -> BlobRef:
        """Append one record at the current end of file and return where its payload is."""
        if len(payload) > MAX_PAYLOAD:
            raise ValueError(f"{self.path}: payload of {len(payload)} bytes exceeds the u32 frame limit")
        data = frame(bytes(payload))
        with self._lock, _Flock(self._fd):
            if os.fstat(self._fd).st_size != self._end:
                # Another process appended (learn its records) or crashed mid-append (we hold the
                # lock, so nobody is writing: a torn tail is truly torn and is cut off here).
                self.recovered = self._walk(recover=True) or self.recovered
            start = self._end
            _write_all(self._fd, data)
            ref = BlobRef(start + HEADER_SIZE, len(payload))
            self._starts.append(ref.offset)
            self._lengths.append(ref.length)
            self._end = start + len(data)
        return ref

    def sync(self) -> None:
        """fsync the file (appends are not synced one by one; see README)."""
        os.fsync(self._fd)

    # -- reading -----------------------------------------------------------------
    def read(self, offset: int) -> bytes:
        """The whole record whose payload starts at `offset`, checksum verified."""
        head = os.pread(self._fd, HEADER_SIZE, offset - HEADER_SIZE) if offset >= HEADER_SIZE else b""
        if len(head) != HEADER_SIZE:
            raise CorruptData(f"{self.path}: no record header before offset {offset}")
        magic, length, digest = _HEADER.unpack(head)
        if magic != MAGIC:
            raise CorruptData(f"{self.path}: offset {offset} is not the start of a record (bad magic)")
        payload = os.pread(self._fd, length, offset)
        if len(payload) != length:
            raise CorruptData(f"{self.path}: record at offset {offset} is cut short ({len(payload)}/{length} bytes)")
        if checksum(payload) != digest:
            raise CorruptData(f"{self.path}: checksum mismatch in record at offset {offset}")
        return payload

    def read_slice(self, offset: int, length: int, *, verify: bool = False) -> bytes:
        """Bytes `[offset, offset+length)`, which must lie inside one record.

        A slice that is exactly one whole record is verified; a partial slice is
        verified (by reading its whole record) only when `verify=True`.
        """
        if offset < 0 or length < 0:
            raise ValueError(f"{self.path}: negative slice offset/length ({offset}, {length})")
        i = self._record_index(offset)
        start, rlen = self._starts[i], self._lengths[i]
        if offset + length > start + rlen:
            raise CorruptData(
                f"{self.path}: slice [{offset}, {offset + length}) runs past the record at {start} "
                f"(payload ends at {start + rlen})"
            )
        if (offset == start and length == rlen) or verify:
            whole = self.read(start)
            return whole[offset - start: offset - start + length]
        data = os.pread(self._fd, length, offset)
        if len(data) != length:
            raise CorruptData(f"{self.path}: slice at {offset} cut short ({len(data)}/{length} bytes)")
        return data

    def records(self) -> list[BlobRef]:
        """Every record known to this handle, in file order."""
        self._refresh()
        return [BlobRef(s, n) for s, n in zip(self._starts, self._lengths)]

    def size(self) -> int:
        return os.fstat(self._fd).st_size

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> "Blob":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals -----------------------------------------------------------------
    def _record_index(self, offset: int) -> int:
        for attempt in (0, 1):
            i = bisect.bisect_right(self._starts, offset) - 1
            if i >= 0 and offset <= self._starts[i] + self._lengths[i]:
                return i
            if attempt == 0:
                self._refresh()  # the record may have been appended by another process
        raise CorruptData(f"{self.path}: offset {offset} is not inside any record")

    def _refresh(self) -> None:
        if os.fstat(self._fd).st_size != self._end:
            with self._lock:
                self._walk(recover=False)

    def _walk(self, *, recover: bool) -> RecoveryReport | None:
        """Index frames from `self._end` on; with `recover`, truncate a torn tail."""
        size = os.fstat(self._fd).st_size
        if size <= self._end:
            return None
        with mmap.mmap(self._fd, size, prot=mmap.PROT_READ) as mm:
            pos, bad, starts, lengths = _scan(mm, self._end, size)
            last = starts[-1] - HEADER_SIZE if starts else None
            self._starts.extend(starts)
            self._lengths.extend(lengths)
            if not recover:
                # Another writer may be mid-append: index only whole frames, fix nothing.
                self._end = pos
                return None
            if last is not None and not _frame_ok(mm, last):
                bad = bad or "bad checksum of the last record"
                self._starts.pop()
                self._lengths.pop()
                pos = last
            if bad is None:
                self._end = pos
                return None
            if _valid_frame_after(mm, pos, size):
                raise CorruptData(
                    f"{self.path}: damaged record at offset {pos} ({bad}) is followed by valid records; "
                    "refusing to truncate (restore from a copy or salvage the records by hand)"
                )
        os.ftruncate(self._fd, pos)
        self._end = pos
        report = RecoveryReport(str(self.path), pos, size - pos, bad, len(self._starts))
        log.warning("%s: dropped a torn tail of %d bytes at offset %d (%s)", self.path, size - pos, pos, bad)
        return report


def _scan(mm: mmap.mmap, pos: int, size: int) -> tuple[int, str | None, list[int], list[int]]:
    """Follow the frame chain from `pos`: (end of the last whole frame, why it stopped or None,
    payload starts, payload lengths). The hot loop of opening a store, kept lean on purpose."""
    unpack = _HEADER.unpack_from
    starts: list[int] = []
    lengths: list[int] = []
    limit = size - HEADER_SIZE
    while pos <= limit:
        magic, length, _ = unpack(mm, pos)
        if magic != MAGIC:
            return pos, "bad magic", starts, lengths
        body = pos + HEADER_SIZE
        if body + length > size:
            return pos, "record length past end of file", starts, lengths
        starts.append(body)
        lengths.append(length)
        pos = body + length
    return pos, ("short header" if pos < size else None), starts, lengths


def _frame_ok(mm: mmap.mmap, pos: int) -> bool:
    _, length, digest = _HEADER.unpack_from(mm, pos)
    body = memoryview(mm)[pos + HEADER_SIZE: pos + HEADER_SIZE + length]
    try:
        return checksum(body) == digest
    finally:
        body.release()


def _valid_frame_after(mm: mmap.mmap, pos: int, size: int) -> bool:
    """Does any checksum-valid frame start after `pos`? (Then the damage is not a torn tail.)"""
    i = mm.find(MAGIC, pos + 1)
    while i != -1:
        if size - i >= HEADER_SIZE:
            _, length, _ = _HEADER.unpack_from(mm, i)
            if i + HEADER_SIZE + length <= size and _frame_ok(mm, i):
                return True
        i = mm.find(MAGIC, i + 1)
    return False


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


class _Flock:
    """Exclusive advisory lock on a descriptor for the duration of a `with` block."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def __enter__(self) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_EX)

    def __exit__(self, *exc: object) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_UN)
