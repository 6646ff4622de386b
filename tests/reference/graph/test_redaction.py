"""No planted secret reaches data.mdb, the revision log or a snapshot; redacted ids stay stable."""
from __future__ import annotations

from reference.clock import LogicalClock
from reference.graph import GraphStore, SnapshotReader
from tests.reference.secret_samples import PLANTED_TEXT, PLANTS, leaked

ONE_LINE = [(kind, text, secret) for kind, text, secret in PLANTS if "\n" not in text.strip() and "#" not in text]


def write_everything(g: GraphStore) -> None:
    """Every plant in node ids, types, scopes, payload strings and keys, edges, policy entries and run ids."""
    g.set_context(run_id="run-password=PLANTEDrunctx1", task_id=None)
    for i, (kind, text, _) in enumerate(PLANTS):
        payload = {"text": text, text.strip(): [text], "n": i}
        if (kind, text, _) in ONE_LINE:
            nid = f"file:src/{text.strip()}.py"
            g.put_node(nid, "file", payload, scope=f"repo {text.strip()}")
            g.put_edge(nid, "imports", "file:src/main.py", payload)
            g.put_kv("repo", "decision", f"k{i} {text.strip()}", payload)
        else:
            g.put_node(f"file:src/plain{i}.py", "file", payload)
            g.put_kv("repo", "decision", f"k{i}", payload)
    g.put_node("file:src/main.py", "file", {"all": PLANTED_TEXT}, task_id="task-PLANTEDtaskid")
    g.put_edges([("file:src/main.py", "imports", "file:src/plain0.py", {"why": PLANTED_TEXT})])
    g.delete_kv("repo", "decision", "k0 " + PLANTS[0][1].strip())


def test_no_planted_secret_in_data_or_snapshot(tmp_path):
    extra = [("run", "", "PLANTEDrunctx1")]
    with GraphStore.open(tmp_path / "graph", clock=LogicalClock(), sync=False) as g:
        write_everything(g)
        g.export_snapshot(tmp_path / "graph" / "out.snap")
        g.compact()
    assert list((tmp_path / "graph").glob("*.mdb")), "the test must look at LMDB files"
    assert leaked(tmp_path, PLANTS + extra) == []
    assert b"[REDACTED:" in (tmp_path / "graph" / "out.snap").read_bytes()


def test_unredacted_store_keeps_the_secret(tmp_path):
    """The grep above would find a secret: with redaction off it is there."""
    with GraphStore.open(tmp_path, clock=LogicalClock(), sync=False, redact=False) as g:
        write_everything(g)
    assert set(leaked(tmp_path)) == {kind for kind, _, _ in PLANTS}


REDACTED_ID = "file:cfg/password=[REDACTED:unquoted-assignment]"


def test_redacted_ids_are_stable_and_found_by_the_original_key(tmp_path):
    raw = "file:cfg/password=PLANTEDhunter2.ini"
    with GraphStore.open(tmp_path, clock=LogicalClock(), sync=False) as g:
        g.put_node(raw, "file", {"token": "token = PLANTEDxyz9"})
        g.put_edge(raw, "imports", "file:b.py")
        g.put_kv("repo", "password=PLANTEDns", "api_key=PLANTEDk", {"v": 1})
        node = g.get_node(raw)
        assert node.id == REDACTED_ID
        assert node.payload == {"token": "token = [REDACTED:unquoted-assignment]"}
        rev = g.put_node(raw, "file", {})  # the same raw id overwrites the same stored node
        assert g.get_node(raw).rev == rev and g.get_node(raw).created_rev == node.created_rev
        assert [e.src for e in g.get_out(raw)] == [node.id]
        assert [e.dst for e in g.get_in("file:b.py")] == ["file:b.py"] and g.get_in("file:b.py")[0].src == node.id
        assert g.get_edge(raw, "imports", "file:b.py") is not None
        assert g.get_kv_latest("repo", "password=PLANTEDns", "api_key=PLANTEDk").payload == {"v": 1}
        assert [e.key for e in g.list_kv("repo", "password=PLANTEDns")] == ["api_key=[REDACTED:unquoted-assignment]"]
        g.export_snapshot(tmp_path / "s.snap")
    with SnapshotReader.open(tmp_path / "s.snap") as snap:
        assert REDACTED_ID in set(snap.keys())
    with GraphStore.open(tmp_path, clock=LogicalClock(10.0), sync=False) as g:  # same input, same id after reopen
        assert g.get_node(raw).id == node.id
    assert leaked(tmp_path, [("k", "", s) for s in ("PLANTEDhunter2", "PLANTEDxyz9", "PLANTEDns", "PLANTEDk")]) == []


def test_snapshot_lookups_by_a_raw_id_carrying_a_secret(tmp_path):
    """The snapshot holds redacted ids; the reader redacts its lookups the same way the store does."""
    raw = "file:cfg/password=PLANTEDsnap42.ini"
    with GraphStore.open(tmp_path / "g", clock=LogicalClock(), sync=False) as g:
        g.put_node(raw, "file", {"n": 1})
        g.put_edge(raw, "imports", "file:b.py")
        g.put_kv("repo", "password=PLANTEDsnapns", "api_key=PLANTEDsnapk", {"v": 1})
        g.export_snapshot(tmp_path / "s.snap")
    assert b"PLANTEDsnap" not in (tmp_path / "s.snap").read_bytes()
    with SnapshotReader.open(tmp_path / "s.snap") as snap:
        node = snap.get_node(raw)
        assert node is not None and node.id == REDACTED_ID and node.payload == {"n": 1}
        assert [(e.src, e.rel, e.dst) for e in snap.get_out(raw, "imports")] == [(REDACTED_ID, "imports", "file:b.py")]
        assert [e.src for e in snap.get_in("file:b.py")] == [REDACTED_ID]
        assert snap.get_kv("repo", "password=PLANTEDsnapns", "api_key=PLANTEDsnapk").payload == {"v": 1}
        assert len(snap.list_kv("repo", "password=PLANTEDsnapns")) == 1
        assert snap.get_node(REDACTED_ID) is not None  # the stored (redacted) id still finds it
    with SnapshotReader.open(tmp_path / "s.snap", redact=False) as snap:  # without redaction: the miss
        assert snap.get_node(raw) is None and snap.get_out(raw) == []


def test_snapshot_reader_takes_a_custom_redactor(tmp_path):
    def mine(text: str) -> str:
        return text.replace("CUSTOM9", "[REDACTED:custom]")

    with GraphStore.open(tmp_path / "g", clock=LogicalClock(), sync=False, redactor=mine) as g:
        g.put_node("file:CUSTOM9.py", "file", {})
        g.export_snapshot(tmp_path / "s.snap")
    with SnapshotReader.open(tmp_path / "s.snap", redactor=mine) as snap:
        assert snap.get_node("file:CUSTOM9.py").id == "file:[REDACTED:custom].py"
    with SnapshotReader.open(tmp_path / "s.snap") as snap:  # the built-in set does not know this secret
        assert snap.get_node("file:CUSTOM9.py") is None


def test_importing_the_snapshot_reader_loads_neither_lmdb_nor_hyperscan():
    import subprocess
    import sys

    code = ("import sys, reference.graph.snapshot.reader; "
            "print(sorted(m for m in ('lmdb', 'hyperscan', 'reference.patterns') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
