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
so several processes may append.

Integrity (issue 11): every read compares the record's checksum, including a
partial `read_slice` (which reads its whole record to do so). On open the
frames are walked:

- a genuinely short tail (a header cut short, or a frame whose length runs
  past end of file with no valid frame after it) is a torn append: its bytes
  are copied to `blob.dat.corrupt` and the file is cut back to the last whole
  record (`Blob.recovered` says so);
- a whole last record whose checksum fails is damage, not a torn write: it is
  copied to `blob.dat.corrupt` and left in place as a dead frame (so its
  offset is never reused by a later append); reads of it raise `CorruptData`;
- a damaged header in the middle (bad magic or a lying length) does not
  refuse the store: the walk resyncs at the next checksum-valid frame, the
  skipped range is listed in `Blob.damaged`, and only reads inside it fail.
"""
from __future__ import annotations

import bisect
import fcntl
import logging
import mmap
import os
import threading
from array import array
from dataclasses import dataclass
from pathlib import Path

from reference.blob.frames import (HEADER, HEADER_SIZE, MAGIC, MAX_PAYLOAD, frame_ok, next_valid_frame, scan_frames,
                                   whole_frame, checksum, frame)
from reference.errors import CorruptData, corrupt

__all__ = ["Blob", "BlobRef", "RecoveryReport", "HEADER_SIZE", "MAGIC", "checksum", "frame", "CorruptData"]

log = logging.getLogger(__name__)

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
        self.damaged: list[tuple[int, int, str]] = []  # (start, end, why) of frames skipped on open
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

    def append_many(self, payloads: list[bytes]) -> list[BlobRef]:
        """`append` of several records in one write: the same bytes and refs as one call each."""
        for p in payloads:
            if len(p) > MAX_PAYLOAD:
                raise ValueError(f"{self.path}: payload of {len(p)} bytes exceeds the u32 frame limit")
        frames = [frame(bytes(p)) for p in payloads]
        with self._lock, _Flock(self._fd):
            if os.fstat(self._fd).st_size != self._end:
                self.recovered = self._walk(recover=True) or self.recovered   # as in `append`
            start, refs = self._end, []
            _write_all(self._fd, b"".join(frames))
            for p, f in zip(payloads, frames):
                refs.append(BlobRef(start + HEADER_SIZE, len(p)))
                self._starts.append(start + HEADER_SIZE)
                self._lengths.append(len(p))
                start += len(f)
            self._end = start
        return refs

    def sync(self) -> None:
        """fsync the file (appends are not synced one by one; see README)."""
        os.fsync(self._fd)

    # -- reading -----------------------------------------------------------------
    def read(self, offset: int) -> bytes:
        """The whole record whose payload starts at `offset`, checksum verified."""
        head = os.pread(self._fd, HEADER_SIZE, offset - HEADER_SIZE) if offset >= HEADER_SIZE else b""
        rec = f"record at offset {offset}"
        if len(head) != HEADER_SIZE:
            raise corrupt(self.path, rec, "no record header before it")
        magic, length, digest = HEADER.unpack(head)
        if magic != MAGIC:
            raise corrupt(self.path, rec, "offset is not the start of a record (bad magic)")
        if offset + length > self._end and offset + length > self.size():  # no 4 GB read on a lying length
            raise corrupt(self.path, rec, f"frame length {length} runs past end of file")
        payload = os.pread(self._fd, length, offset)
        if len(payload) != length:
            raise corrupt(self.path, rec, f"cut short ({len(payload)}/{length} bytes)")
        if checksum(payload) != digest:
            raise corrupt(self.path, rec, "checksum mismatch")
        return payload

    def read_slice(self, offset: int, length: int, *, verify: bool = False) -> bytes:
        """Bytes `[offset, offset+length)`, which must lie inside one record.

        Always verified against the record's checksum (a partial slice reads its
        whole record to do so); `verify` is kept for callers written before that.
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
        whole = self.read(start)
        return whole[offset - start: offset - start + length]

    def records(self) -> list[BlobRef]:
        """Every record known to this handle, in file order."""
        self._refresh()
        return [BlobRef(s, n) for s, n in zip(self._starts, self._lengths)]

    @property
    def end(self) -> int:
        """The end of the last whole record this handle knows (read or written): what `manifest.json`
        may vouch for, never a torn tail another process is still writing."""
        return self._end

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
        for start, end, why in self.damaged:
            if start <= offset < end:
                raise corrupt(self.path, f"record at offset {offset}",
                              f"lies in the damaged range [{start}, {end}) ({why})")
        raise corrupt(self.path, f"offset {offset}", "not inside any record")

    def _refresh(self) -> None:
        if os.fstat(self._fd).st_size != self._end:
            with self._lock:
                self._walk(recover=False)

    def _walk(self, *, recover: bool) -> RecoveryReport | None:
        """Index frames from `self._end` on; with `recover`, resync past damage and cut a torn tail."""
        size = os.fstat(self._fd).st_size
        if size <= self._end:
            return None
        with mmap.mmap(self._fd, size, prot=mmap.PROT_READ) as mm:
            pos = self._end
            while True:
                pos, bad, starts, lengths = scan_frames(mm, pos, size)
                self._starts.extend(starts)
                self._lengths.extend(lengths)
                if not recover:
                    # Another writer may be mid-append: index only whole frames, fix nothing.
                    self._end = pos
                    return None
                if bad is None:
                    break
                if bad == "bad magic" and starts and not frame_ok(mm, starts[-1] - HEADER_SIZE):
                    # the frame before lied about its length: it is the damaged one
                    pos = starts[-1] - HEADER_SIZE
                    self._starts.pop()
                    self._lengths.pop()
                nxt = next_valid_frame(mm, pos, size)
                if nxt is None:
                    break
                self._mark_damaged(mm, pos, nxt, f"{bad}; resynced at the next valid frame")
                pos = nxt
            if bad is None and self._starts and self._starts[-1] + self._lengths[-1] == pos:
                last = self._starts[-1] - HEADER_SIZE
                if last >= self._end and not frame_ok(mm, last):
                    # a whole frame with a bad checksum is damage, not a torn write: keep it in place
                    self._starts.pop()
                    self._lengths.pop()
                    self._mark_damaged(mm, last, pos, "bad checksum of the last record")
            if bad is not None and whole_frame(mm, pos, size):
                # magic or length flipped in a complete last frame: damage, not a torn write
                self._mark_damaged(mm, pos, size, f"{bad} in the last record")
                bad, pos = None, size
            if bad is None:
                self._end = pos
                return None
            tail = bytes(mm[pos:size])
        self._keep_aside(pos, tail, bad)
        os.ftruncate(self._fd, pos)
        self._end = pos
        report = RecoveryReport(str(self.path), pos, size - pos, bad, len(self._starts))
        log.warning("%s: dropped a torn tail of %d bytes at offset %d (%s); kept in %s",
                    self.path, size - pos, pos, bad, self.corrupt_path)
        return report

    @property
    def corrupt_path(self) -> Path:
        return self.path.with_name(self.path.name + ".corrupt")

    def _mark_damaged(self, mm: mmap.mmap, start: int, end: int, why: str) -> None:
        self.damaged.append((start, end, why))
        self._keep_aside(start, bytes(mm[start:end]), why)
        log.warning("%s: damaged bytes [%d, %d) (%s); reads there fail, the rest is readable", self.path,
                    start, end, why)

    def _keep_aside(self, offset: int, data: bytes, why: str) -> None:
        """Append `data` to `<blob>.corrupt` once per offset: a text header line, the bytes, a newline."""
        head = f"offset {offset} length {len(data)} reason {why}\n".encode()
        side = self.corrupt_path
        if side.exists() and f"offset {offset} length {len(data)} ".encode() in side.read_bytes():
            return  # kept on an earlier open
        with open(side, "ab") as fh:
            fh.write(head + data + b"\n")


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
