"""Frame-level helpers of `blob.dat` (layout in blob/blob.py): build, walk and check frames.

Shared by `Blob` (open, append, reads) and `reference.verify` (a read-only walk).
"""
from __future__ import annotations

import hashlib
import mmap
import struct

MAGIC = b"\xb1\x0bCM"
HEADER = struct.Struct("<4sI8s")
HEADER_SIZE = HEADER.size  # 16
MAX_PAYLOAD = 0xFFFFFFFF


def checksum(payload: bytes | memoryview) -> bytes:
    """BLAKE2b with an 8-byte digest: the frame checksum."""
    return hashlib.blake2b(payload, digest_size=8).digest()


def frame(payload: bytes) -> bytes:
    """Header + payload, as written to disk."""
    return HEADER.pack(MAGIC, len(payload), checksum(payload)) + payload


def scan_frames(mm: mmap.mmap, pos: int, size: int) -> tuple[int, str | None, list[int], list[int]]:
    """Follow the frame chain from `pos`: (end of the last whole frame, why it stopped or None,
    payload starts, payload lengths). The hot loop of opening a store, kept lean on purpose."""
    unpack = HEADER.unpack_from
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


def frame_ok(mm: mmap.mmap, pos: int) -> bool:
    _, length, digest = HEADER.unpack_from(mm, pos)
    body = memoryview(mm)[pos + HEADER_SIZE: pos + HEADER_SIZE + length]
    try:
        return checksum(body) == digest
    finally:
        body.release()


def whole_frame(mm: mmap.mmap, pos: int, size: int) -> bool:
    """Is `[pos, size)` one complete frame with one damaged header field (so not a torn append)?

    Either its length field fits the tail exactly, or the tail's payload still
    matches the header's checksum (then only the magic or the length lied)."""
    if size - pos < HEADER_SIZE:
        return False
    _, length, digest = HEADER.unpack_from(mm, pos)
    return length == size - pos - HEADER_SIZE or checksum(mm[pos + HEADER_SIZE:size]) == digest


def next_valid_frame(mm: mmap.mmap, pos: int, size: int) -> int | None:
    """Header position of the first checksum-valid frame starting after `pos`, or None."""
    i = mm.find(MAGIC, pos + 1)
    while i != -1:
        if size - i >= HEADER_SIZE:
            _, length, _ = HEADER.unpack_from(mm, i)
            if i + HEADER_SIZE + length <= size and frame_ok(mm, i):
                return i
        i = mm.find(MAGIC, i + 1)
    return None
