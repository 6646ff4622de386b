"""Packed adjacency lists (seed 003 §4.5) and their compaction.

On-disk value (inside the common frame `version u8 | crc32 u32 | body`, see codec.py):

    body = compacted_rev u32 LE | tombstones u32 LE | varint count | count x entry
    entry = rel_id u32 LE | other_id u64 LE | edge_rev u32 LE | flags u8     (17 bytes)

`other_id` is the destination in an `out:` list and the source in an `in:` list.
Flags: bit 0 = tombstone; other bits are reserved and must be 0. Entries are in
revision order: an add entry (flags 0) has the revision that created the edge,
a tombstone the revision that deleted it. Re-putting a live edge changes only its
payload, so it appends nothing. The live edges at revision R are the adds with
no tombstone at or before R, in order of creation.

Compaction moves dead (add, tombstone) pairs whose tombstone is at or before the
compacting revision C to the list's cold part (`oc:`/`ic:`, same format) and
records C. A read at R >= C needs the hot part only; a read at R < C merges both
parts by revision, so compaction loses no history.
"""
from __future__ import annotations

import heapq
import struct
from dataclasses import dataclass

from reference.graph.codec import decode_varint, encode_varint, frame, unframe
from reference.graph.errors import CorruptAdjacency

ENTRY = struct.Struct("<IQIB")
ENTRY_SIZE = ENTRY.size
TOMBSTONE = 1
_HEAD = struct.Struct("<II")


@dataclass(frozen=True)
class CompactionPolicy:
    """When a list is compacted inline (§8 Q1/Q2): it has tombstones and either the tombstone
    share of its entries reaches `tombstone_ratio` or it is larger than `max_bytes`. With
    `enabled=False` nothing is compacted until `compact()` and a `TombstoneWarning` is
    raised once a list's tombstone share reaches `warn_ratio`."""

    tombstone_ratio: float = 0.25
    max_bytes: int = 64 * 1024
    enabled: bool = True
    warn_ratio: float = 0.5


class AdjList:
    """One decoded list: header fields plus the raw packed entries."""

    __slots__ = ("compacted_rev", "tombstones", "entries")

    def __init__(self, compacted_rev: int = 0, tombstones: int = 0, entries: bytes | bytearray = b"") -> None:
        self.compacted_rev = compacted_rev
        self.tombstones = tombstones
        self.entries = bytearray(entries)

    @classmethod
    def decode(cls, key: bytes, value: bytes | None) -> AdjList:
        if value is None:
            return cls()
        compacted_rev, tombstones, body, pos = _parse(key, value)
        return cls(compacted_rev, tombstones, body[pos:])

    def encode(self, key: bytes) -> bytes:
        body = _HEAD.pack(self.compacted_rev, self.tombstones) + encode_varint(self.count) + self.entries
        return frame(key, body)

    @property
    def count(self) -> int:
        return len(self.entries) // ENTRY_SIZE

    def append(self, rel: int, other: int, rev: int, flags: int = 0) -> None:
        self.entries += ENTRY.pack(rel, other, rev, flags)
        if flags & TOMBSTONE:
            self.tombstones += 1

    def live(self, upto: int | None = None, key: bytes = b"") -> list[tuple[int, int, int]]:
        """(rel, other, created_rev) of the edges live after revision `upto` (None = all entries).

        Every answer passes the sequence checks of `resolve` (a tombstone-free list through the
        cheaper equivalent `_plain`): the checksum proves the bytes are what was written, the
        checks prove that what was written makes sense."""
        if not self.tombstones:
            plain = _plain(ENTRY.iter_unpack(self.entries), upto)
            if plain is not None:
                return plain
        return resolve(ENTRY.iter_unpack(self.entries), upto, key)

    def should_compact(self, policy: CompactionPolicy) -> bool:
        if not self.tombstones:
            return False
        return self.tombstones >= policy.tombstone_ratio * self.count or len(self.entries) > policy.max_bytes

    def compact(self, rev: int, key: bytes = b"") -> bytes:
        """Keep only live entries; return the dead ones (in revision order) for the cold part."""
        live: dict[tuple[int, int], bytes] = {}
        dead: list[tuple[int, bytes]] = []
        for r, o, v, f in ENTRY.iter_unpack(self.entries):
            raw = ENTRY.pack(r, o, v, f)
            if f & TOMBSTONE:
                added = live.pop((r, o), None)
                if added is None:
                    raise CorruptAdjacency(f"adjacency list at LMDB key {key!r}: tombstone for an edge that is not live")
                dead.append((ENTRY.unpack(added)[2], added))
                dead.append((v, raw))
            else:
                live[(r, o)] = raw
        # A re-added edge was re-inserted at the dict's end, so values are in creation order.
        self.entries = bytearray(b"".join(live.values()))
        self.tombstones = 0
        self.compacted_rev = rev
        dead.sort(key=lambda pair: pair[0])
        return b"".join(raw for _, raw in dead)


def _parse(key: bytes, value: bytes) -> tuple[int, int, bytes, int]:
    """(compacted_rev, tombstones, body, offset of the first entry) of a checked list value."""
    body = unframe(key, value, "adjacency list", CorruptAdjacency)
    try:
        compacted_rev, tombstones = _HEAD.unpack_from(body, 0)
        count, pos = decode_varint(body, _HEAD.size)
    except (struct.error, ValueError) as exc:
        raise CorruptAdjacency(f"adjacency list at LMDB key {key!r}: bad header ({exc})") from None
    if len(body) - pos != count * ENTRY_SIZE or tombstones > count:
        raise CorruptAdjacency(
            f"adjacency list at LMDB key {key!r}: header says {count} entries / {tombstones} tombstones"
            f" but {len(body) - pos} entry bytes follow"
        )
    return compacted_rev, tombstones, body, pos


def live_latest(key: bytes, value: bytes) -> list[tuple[int, int, int]]:
    """`AdjList.decode(key, value).live(None, key)` without building the object (the hot path)."""
    _, tombstones, body, pos = _parse(key, value)
    if not tombstones:
        return _plain(ENTRY.iter_unpack(memoryview(body)[pos:]), None) or resolve(
            ENTRY.iter_unpack(body[pos:]), None, key)
    return resolve(ENTRY.iter_unpack(body[pos:]), None, key)


def _plain(entries, upto: int | None) -> list[tuple[int, int, int]] | None:
    """The entries as (rel, other, rev) if they hold no tombstone and pass the sequence checks, else None."""
    rows = list(entries)
    if not rows or (upto is not None and rows[-1][2] > upto):
        return None
    revs = [row[2] for row in rows]
    if (not any([row[3] for row in rows]) and all(map(int.__lt__, revs, revs[1:]))
            and len({(row[0], row[1]) for row in rows}) == len(rows)):
        return [row[:3] for row in rows]
    return None


def merge_entries(a: bytes | bytearray, b: bytes | bytearray) -> bytes:
    """Merge two revision-ordered packed entry runs into one (revisions are unique per list)."""
    if not a:
        return bytes(b)
    if not b:
        return bytes(a)
    merged = heapq.merge(ENTRY.iter_unpack(a), ENTRY.iter_unpack(b), key=lambda e: e[2])
    return b"".join(ENTRY.pack(*e) for e in merged)


def resolve(entries, upto: int | None, key: bytes = b"") -> list[tuple[int, int, int]]:
    """Replay (rel, other, rev, flags) entries up to `upto`; fail on an impossible sequence."""
    live: dict[tuple[int, int], int] = {}
    last = -1
    for r, o, v, f in entries:
        if upto is not None and v > upto:
            break
        if v <= last or f & ~TOMBSTONE:
            raise CorruptAdjacency(f"adjacency list at LMDB key {key!r}: entry rev {v} after {last} or flags {f:#x}")
        last = v
        if f:
            if live.pop((r, o), None) is None:
                raise CorruptAdjacency(f"adjacency list at LMDB key {key!r}: tombstone at rev {v} for a dead edge")
        elif (r, o) in live:
            raise CorruptAdjacency(f"adjacency list at LMDB key {key!r}: second add at rev {v} for a live edge")
        else:
            live[(r, o)] = v
    return [(r, o, v) for (r, o), v in live.items()]
