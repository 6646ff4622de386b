"""`verify_store` and `codemem-bench verify`: clean stores pass, each damaged file and record is named."""
from __future__ import annotations

import pytest

from bench.cli.main import main
from reference.clock import LogicalClock
from reference.errors import CorruptData
from reference.graph import GraphStore
from reference.graph import keyspace as ks
from reference.keys import hash64
from reference.store import MemoryStore
from reference.verify import verify_store

NODES = ["file:a.py", "file:b.py", "file:c.py"]


@pytest.fixture
def data(tmp_path):
    d = tmp_path / "data"
    with MemoryStore.open(d, clock=LogicalClock()) as s:
        for i in range(5):
            s.write_memory(f"memory number {i} about caching", task="task:debug")
    with GraphStore.open(d / "graph", clock=LogicalClock()) as g:
        for n in NODES:
            g.put_node(n, "file", {"n": n})
        g.put_edge(NODES[0], "imports", NODES[1])
        g.put_edge(NODES[2], "imports", NODES[1])
    return d


def flip_all(path, needle: bytes, at: int) -> None:
    data = bytearray(path.read_bytes())
    i = data.find(needle)
    assert i >= 0
    while i >= 0:
        data[i + at] ^= 0x01
        i = data.find(needle, i + 1)
    path.write_bytes(bytes(data))


def test_a_clean_store_exits_0_with_one_summary_line(data, capsys):
    assert verify_store(data).ok
    assert main(["verify", "--data", str(data)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("ok:")


def test_a_damaged_blob_record_is_named_with_its_offset(data, capsys):
    flip_all(data / "blob.dat", b"memory number 3", 8)
    assert main(["verify", "--data", str(data)]) == 1
    err = capsys.readouterr().err
    assert str(data / "blob.dat") in err and "record at offset" in err and "checksum mismatch" in err


def test_a_flipped_graph_key_byte_is_reported_by_reads_and_verify(data):
    nid = hash64(NODES[1])
    flip_all(data / "graph" / "data.mdb", ks.NODE + ks.u64(nid), 5)  # a byte of the node's id in its key
    with GraphStore.open(data / "graph", clock=LogicalClock()) as g:
        with pytest.raises(CorruptData, match="data.mdb"):
            g.get_node(NODES[1])
        assert g.get_node(NODES[0]).payload == {"n": NODES[0]}  # the rest still reads
    report = verify_store(data)
    assert str(data / "graph" / "data.mdb") in report.damaged_files()
    assert any(f"{nid:#018x}" in p.record for p in report.problems)


def test_a_vanished_in_list_is_reported(data):
    nid = hash64(NODES[1])
    flip_all(data / "graph" / "data.mdb", ks.IN + ks.u64(nid), 0)  # "in:" -> "hn:"
    with GraphStore.open(data / "graph", clock=LogicalClock()) as g:
        with pytest.raises(CorruptData, match="in-edges"):
            g.get_in(NODES[1])
    assert not verify_store(data).ok


def test_missing_folder_is_an_input_error(tmp_path, capsys):
    assert main(["verify", "--data", str(tmp_path / "nope")]) == 2
    assert "no such data folder" in capsys.readouterr().err


def test_a_damaged_snapshot_is_named(data):
    snap = data / "snapshots" / "s1.bin"
    snap.parent.mkdir()
    with GraphStore.open(data / "graph", clock=LogicalClock()) as g:
        g.export_snapshot(snap)
    report = verify_store(data)
    assert report.ok and str(snap) in report.checked
    raw = bytearray(snap.read_bytes())
    raw[len(raw) // 2] ^= 0x08
    snap.write_bytes(bytes(raw))
    assert verify_store(data).damaged_files() == [str(snap)]


def test_a_vanished_edge_and_kv_entry_are_reported(data):
    with GraphStore.open(data / "graph", clock=LogicalClock()) as g:
        g.put_kv("proj", "policy", "depth", 3)
    with GraphStore.open(data / "graph", clock=LogicalClock()) as g:
        rel = g.relations()["imports"]
    edge = ks.EDGE + ks.edge_id(hash64(NODES[0]), rel, hash64(NODES[1]))
    flip_all(data / "graph" / "data.mdb", edge, 3)
    flip_all(data / "graph" / "data.mdb", ks.KV + ks.kv_path("proj", "policy", "depth"), 8)
    with GraphStore.open(data / "graph", clock=LogicalClock()) as g:
        with pytest.raises(CorruptData, match="edge file:a.py -imports-> file:b.py"):
            g.get_edge(NODES[0], "imports", NODES[1])
        with pytest.raises(CorruptData, match="kv entry"):
            g.get_kv_latest("proj", "policy", "depth")
        assert g.get_edge(NODES[2], "imports", NODES[1]) is not None


@pytest.mark.parametrize("name", ["vectors.f32", "vectors.tags", "vectors.keys", "vectors.sums"])
def test_a_damaged_vector_row_is_named_by_its_one_file(tmp_path, name):
    """Issue 25: verify named the four vector files as a group; the manifest's regions say which one changed."""
    from reference.clock import LogicalClock
    from reference.store import MemoryStore
    from reference.verify import verify_store

    with MemoryStore.open(tmp_path, clock=LogicalClock()) as s:
        for i in range(10):
            s.write_memory(f"memory {i} about vectors")
    path = tmp_path / name
    raw = bytearray(path.read_bytes())
    raw[len(raw) - 2] ^= 0x10                      # inside the last row's bytes of that file
    path.write_bytes(bytes(raw))
    rows = [p for p in verify_store(tmp_path).problems if p.record.startswith("row ")]
    assert rows and all(p.file == str(path) for p in rows), [str(p) for p in rows]
