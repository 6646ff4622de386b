"""Packed adjacency lists: the byte format of §4.5, replay at a revision, compaction, corruption."""
from __future__ import annotations

import struct
import zlib

import pytest

from reference.graph.adjacency import TOMBSTONE, AdjList, CompactionPolicy, merge_entries, resolve
from reference.graph.codec import decode_varint, encode_varint
from reference.graph.errors import CorruptAdjacency

KEY = b"out:" + (7).to_bytes(8, "big")


def test_encoding_matches_the_documented_layout():
    adj = AdjList()
    adj.append(3, 0x1122334455667788, 5)
    adj.append(3, 9, 6, TOMBSTONE)
    raw = adj.encode(KEY)
    body = struct.pack("<II", 0, 1) + bytes([2]) + struct.pack("<IQIB", 3, 0x1122334455667788, 5, 0)
    body += struct.pack("<IQIB", 3, 9, 6, 1)
    assert raw == b"\x01" + zlib.crc32(body, zlib.crc32(b"\x01", zlib.crc32(KEY))).to_bytes(4, "little") + body
    back = AdjList.decode(KEY, raw)
    assert (back.count, back.tombstones, back.compacted_rev) == (2, 1, 0)


@pytest.mark.parametrize("n", [0, 1, 127, 128, 300, 16384, 2**32 - 1])
def test_varint_round_trip(n):
    raw = encode_varint(n)
    assert decode_varint(raw + b"\xaa", 0) == (n, len(raw))
    assert len(raw) == max(1, (n.bit_length() + 6) // 7)


def test_live_at_each_revision():
    adj = AdjList()
    adj.append(1, 100, 1)  # add a
    adj.append(1, 200, 2)  # add b
    adj.append(1, 100, 4, TOMBSTONE)  # delete a
    adj.append(2, 100, 5)  # add a under another relation
    adj.append(1, 100, 7)  # re-add a: goes to the end
    assert adj.live(0) == []
    assert adj.live(1) == [(1, 100, 1)]
    assert adj.live(3) == [(1, 100, 1), (1, 200, 2)]
    assert adj.live(4) == [(1, 200, 2)]
    assert adj.live(6) == [(1, 200, 2), (2, 100, 5)]
    assert adj.live(None) == [(1, 200, 2), (2, 100, 5), (1, 100, 7)]


def test_compaction_moves_dead_pairs_and_keeps_history():
    adj = AdjList()
    for rel, other, rev, flags in [(1, 100, 1, 0), (1, 200, 2, 0), (1, 100, 4, TOMBSTONE), (1, 300, 5, 0),
                                   (1, 200, 6, TOMBSTONE)]:
        adj.append(rel, other, rev, flags)
    full = bytes(adj.entries)
    dead = adj.compact(6, KEY)
    assert adj.live(None) == [(1, 300, 5)]
    assert (adj.tombstones, adj.compacted_rev, adj.count) == (0, 6, 1)
    revs = [e[2] for e in struct.iter_unpack("<IQIB", dead)]
    assert revs == [1, 2, 4, 6]
    merged = merge_entries(dead, adj.entries)
    assert merged == full
    assert resolve(struct.iter_unpack("<IQIB", merged), 3, KEY) == [(1, 100, 1), (1, 200, 2)]


def test_policy_thresholds():
    policy = CompactionPolicy(tombstone_ratio=0.25, max_bytes=10_000)
    adj = AdjList()
    for i in range(7):
        adj.append(1, i, i + 1)
    adj.append(1, 0, 8, TOMBSTONE)  # 1 tombstone in 8 entries: 0.125
    assert not adj.should_compact(policy)
    adj.append(1, 1, 9, TOMBSTONE)  # 2 in 9: 0.22
    assert not adj.should_compact(policy)
    adj.append(1, 2, 10, TOMBSTONE)  # 3 in 10: 0.3
    assert adj.should_compact(policy)
    assert AdjList(0, 1, adj.entries[:17 * 3]).should_compact(CompactionPolicy(tombstone_ratio=0.9, max_bytes=40))


@pytest.mark.parametrize("entries", [
    [(1, 5, 1, 0), (1, 5, 2, 0)],            # second add of a live edge
    [(1, 5, 1, TOMBSTONE)],                  # tombstone of a dead edge
    [(1, 5, 2, 0), (1, 6, 2, 0)],            # revisions not increasing
    [(1, 5, 1, 4)],                          # unknown flag bit
])
def test_impossible_sequences_fail_fast(entries):
    adj = AdjList()
    for e in entries:
        adj.entries += struct.pack("<IQIB", *e)
        adj.tombstones += e[3] & 1
    with pytest.raises(CorruptAdjacency):
        adj.live(None, KEY)


def test_decode_rejects_damage():
    adj = AdjList()
    adj.append(1, 5, 1)
    raw = adj.encode(KEY)
    for i in range(len(raw)):
        bad = bytearray(raw)
        bad[i] ^= 0x10
        with pytest.raises(CorruptAdjacency):
            AdjList.decode(KEY, bytes(bad))
    with pytest.raises(CorruptAdjacency):
        AdjList.decode(b"out:" + (8).to_bytes(8, "big"), raw)  # a value under the wrong key
    with pytest.raises(CorruptAdjacency):
        AdjList.decode(KEY, raw[:-1])
