"""mmap snapshots (§4.6): content, byte determinism, independent reader, corruption detection."""
from __future__ import annotations

import json
import struct
import subprocess
import sys
import zlib

import pytest

from reference.clock import LogicalClock
from reference.graph import At, CompactionPolicy, GraphStore, SnapshotReader
from reference.graph.errors import CorruptData, CorruptSnapshot

A, B, C = "file:a.py", "file:b.py", "sym:a.py#f:function:1:2"

OPS = [
    ("put_node", A, "file", {"lang": "py"}),
    ("put_node", B, "file", None),
    ("put_edge", A, "defines", C, None),
    ("put_edge", A, "imports", B, {"line": 3}),
    ("advance",),
    ("put_kv", "repo", "decision", "style", "ruff"),
    ("put_edge", B, "imports", A, None),
    ("delete_edge", A, "imports", B),
    ("put_node", C, "symbol", {"doc": "é"}),
    ("advance",),
    ("put_kv", "repo", "constraint", "py", ">=3.11"),
    ("put_node", A, "file", {"lang": "python"}),
    ("delete_edge", B, "imports", A),
    ("put_edge", A, "imports", B, None),
]


def build(path, ops=OPS, batch_size=1, policy=None):
    clock = LogicalClock(1000.0)
    g = GraphStore.open(path, clock=clock, sync=False, compaction=policy)
    for i in range(0, len(ops), batch_size):
        with g.batch():
            for op in ops[i:i + batch_size]:
                if op[0] == "advance":
                    clock.advance(10)
                else:
                    getattr(g, op[0])(*op[1:])
    return g


def test_header_and_contents(tmp_path):
    g = build(tmp_path / "g")
    info = g.export_snapshot(tmp_path / "s.snap")
    raw = (tmp_path / "s.snap").read_bytes()
    assert raw[:8] == b"CMGSNAP\x00" and struct.unpack_from("<HH", raw, 8) == (1, 6)
    assert struct.unpack_from("<Q", raw, 16)[0] == len(raw) == info["bytes"]
    # 12 writes; 3 keys, 3 nodes, 2 live edges (A defines C, A imports B), 2 policy entries
    assert struct.unpack_from("<I", raw, 24)[0] == 12
    assert struct.unpack_from("<IIIII", raw, 40) == (3, 3, 2, 2, 10)
    assert (info["revision"], info["revision_ts"], info["edges"]) == (12, 1020.0, 2)
    with SnapshotReader.open(tmp_path / "s.snap") as snap:
        assert snap.revision == 12 and snap.revision_ts == 1020.0
        assert [(e.rel, e.dst, e.rev) for e in snap.get_out(A)] == [("defines", C, 3), ("imports", B, 12)]
        assert [(e.src, e.rel) for e in snap.get_in(B)] == [(A, "imports")]
        assert snap.get_out(B) == [] and snap.get_out("file:zzz.py") == []
        assert snap.get_out(A, rel="defines")[0].dst == C
        node = snap.get_node(A)
        assert (node.payload, node.rev, node.created_rev, node.created_ts) == ({"lang": "python"}, 10, 1, 1000.0)
        assert snap.get_node(C).payload == {"doc": "é"} and snap.get_node("file:zzz.py") is None
        assert [e.key for e in snap.list_kv("repo", "decision")] == ["style"]
        assert snap.get_kv("repo", "constraint", "py").payload == ">=3.11"
        assert snap.get_kv("repo", "constraint", "nope") is None
        assert sorted(snap.keys()) == sorted([A, B, C])
        assert snap.get_node(A) == g.get_node(A)
        assert snap.get_out(A) == g.get_out(A) and snap.get_in(B) == g.get_in(B)
    g.close()


def test_same_ops_give_identical_bytes_whatever_the_batching_and_compaction(tmp_path):
    g1 = build(tmp_path / "one")
    g2 = build(tmp_path / "two", batch_size=5, policy=CompactionPolicy(enabled=False, warn_ratio=2.0))
    g3 = build(tmp_path / "three", batch_size=len(OPS), policy=CompactionPolicy(tombstone_ratio=0.01))
    g2.compact()
    digests = {g.export_snapshot(tmp_path / f"{i}.snap")["sha256"] for i, g in enumerate((g1, g2, g3))}
    assert len(digests) == 1
    files = [(tmp_path / f"{i}.snap").read_bytes() for i in range(3)]
    assert files[0] == files[1] == files[2]
    g1.export_snapshot(tmp_path / "again.snap")
    assert (tmp_path / "again.snap").read_bytes() == files[0]
    for g in (g1, g2, g3):
        g.close()


@pytest.mark.parametrize("k", [0, 1, 4, 8, 11])
def test_snapshot_at_a_past_revision_equals_the_store_that_stopped_there(tmp_path, k):
    # OPS[:n] holding exactly k writes ("advance" is not a write)
    writes = [i for i, op in enumerate(OPS) if op[0] != "advance"]
    prefix = OPS[:writes[k - 1] + 1] if k else []
    full, short = build(tmp_path / "full"), build(tmp_path / "short", prefix)
    full.export_snapshot(tmp_path / "a.snap", at=At.rev(k))
    short.export_snapshot(tmp_path / "b.snap")
    assert (tmp_path / "a.snap").read_bytes() == (tmp_path / "b.snap").read_bytes()
    full.close()
    short.close()


def test_every_flipped_byte_is_detected(tmp_path):
    g = build(tmp_path / "g")
    g.export_snapshot(tmp_path / "s.snap")
    g.close()
    raw = (tmp_path / "s.snap").read_bytes()
    bad = tmp_path / "bad.snap"
    for i in range(len(raw)):
        bad.write_bytes(raw[:i] + bytes([raw[i] ^ 0x04]) + raw[i + 1:])
        with pytest.raises(CorruptData):
            SnapshotReader.open(bad)
    for damaged in (raw[:-8], raw + b"\0" * 8, raw[:100], b""):
        bad.write_bytes(damaged)
        with pytest.raises(CorruptSnapshot):
            SnapshotReader.open(bad)


def test_a_consistent_forgery_with_a_bad_index_still_fails_fast(tmp_path):
    """Rewrite an adjacency entry to point at key index 99 and fix every checksum: lookups must refuse."""
    g = build(tmp_path / "g")
    g.export_snapshot(tmp_path / "s.snap")
    g.close()
    raw = bytearray((tmp_path / "s.snap").read_bytes())
    off, length = struct.unpack_from("<QQ", raw, 64 + 24 * 3)  # OUT section
    n_keys, n_edges = struct.unpack_from("<I", raw, 40)[0], struct.unpack_from("<I", raw, 48)[0]
    first = off + 4 * (n_keys + 1)
    struct.pack_into("<I", raw, first + 4, 99)
    struct.pack_into("<I", raw, 64 + 24 * 3 + 16, zlib.crc32(raw[off:off + length]))
    struct.pack_into("<I", raw, 60, zlib.crc32(raw[64:64 + 6 * 24], zlib.crc32(raw[:60])))
    (tmp_path / "f.snap").write_bytes(bytes(raw))
    assert n_edges == 2
    with SnapshotReader.open(tmp_path / "f.snap") as snap:
        owner = [k for k in snap.keys() if snap._index(k) == next(
            i for i in range(n_keys) if snap._out[0][i] < snap._out[0][i + 1])][0]
        with pytest.raises(CorruptSnapshot):
            snap.get_out(owner)


def test_reader_needs_no_lmdb(tmp_path):
    g = build(tmp_path / "g")
    g.export_snapshot(tmp_path / "s.snap")
    g.close()
    code = (
        "import sys, json\n"
        "from reference.graph.snapshot.reader import SnapshotReader\n"
        f"snap = SnapshotReader.open({str(tmp_path / 's.snap')!r})\n"
        f"out = [e.to_dict() for e in snap.get_out({A!r})]\n"
        "print(json.dumps({'lmdb': 'lmdb' in sys.modules, 'out': out}))\n"
    )
    result = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                       check=True).stdout)
    assert result == {"lmdb": False, "out": [{"src": A, "rel": "defines", "dst": C, "rev": 3},
                                            {"src": A, "rel": "imports", "dst": B, "rev": 12}]}
