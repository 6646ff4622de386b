"""Graph and policy tools (seed 003 §5.1): writes, point-in-time reads, supersede, diff, snapshot."""
from __future__ import annotations

from reference.graph.snapshot.reader import SnapshotReader
from tests.reference.mcp_server.conftest import START

A, B, C = "file:src/a.py", "file:src/b.py", "sym:src/a.py#f:function:1:3"


def edges(rows):
    return [(r["src"], r["rel"], r["dst"]) for r in rows]


def test_nodes_edges_and_reads_at_a_revision(mcp):
    assert mcp.call("graph_put_node", id=A, type="file", payload={"lang": "py"}) == {"id": A, "rev": 1}
    mcp.call("graph_put_node", id=B, type="file")
    mcp.call("graph_put_edge", src=A, rel="defines", dst=C)
    mcp.call("graph_put_edge", src=A, rel="imports", dst=B, payload={"line": 3})
    mcp.call("_harness_advance_clock", seconds=10.0)
    assert mcp.call("graph_delete_edge", src=A, rel="defines", dst=C) == {"rev": 5}
    mcp.call("graph_put_node", id=A, type="file", payload={"lang": "python"})

    assert edges(mcp.call("graph_get_out", src=A)) == [(A, "imports", B)]
    assert edges(mcp.call("graph_get_out", src=A, at={"rev": 4})) == [(A, "defines", C), (A, "imports", B)]
    assert edges(mcp.call("graph_get_out", src=A, rel="defines", at="rev:3")) == [(A, "defines", C)]
    assert edges(mcp.call("graph_get_in", dst=B)) == [(A, "imports", B)]
    assert mcp.call("graph_get_in", dst=C) == []
    node = mcp.call("graph_get_node", id=A)
    assert (node["payload"], node["rev"], node["created_ts"], node["updated_ts"]) == ({"lang": "python"}, 6, START,
                                                                                    START + 10)
    assert mcp.call("graph_get_node", id=A, at={"ts": START})["payload"] == {"lang": "py"}
    assert mcp.call("graph_get_node", id=B, at={"rev": 1}) is None
    assert mcp.call("graph_get_edge", src=A, rel="imports", dst=B)["payload"] == {"line": 3}


def test_supersede_marks_the_old_node(mcp):
    mcp.call("graph_put_node", id="mem:00000001", type="decision", payload="use tabs")
    mcp.call("graph_put_node", id="mem:00000002", type="decision", payload="use spaces")
    mcp.call("graph_supersede", new_id="mem:00000002", old_id="mem:00000001")
    assert mcp.call("graph_get_node", id="mem:00000001")["superseded_by"] == "mem:00000002"
    assert edges(mcp.call("graph_get_in", dst="mem:00000001", rel="supersedes")) == [
        ("mem:00000002", "supersedes", "mem:00000001")]


def test_policy_history_and_listing(mcp):
    mcp.call("policy_put", scope="repo", namespace="procedure", key="test", payload="pytest -q")
    mcp.call("_harness_advance_clock", seconds=5.0)
    mcp.call("policy_put", scope="repo", namespace="procedure", key="test", payload="pytest -q -x")
    mcp.call("policy_put", scope="repo", namespace="procedure", key="lint", payload="ruff check")
    mcp.call("policy_put", scope="repo", namespace="decision", key="errors", payload={"style": "exceptions"})
    assert mcp.call("policy_get", scope="repo", namespace="procedure", key="test")["payload"] == "pytest -q -x"
    assert mcp.call("policy_get", scope="repo", namespace="procedure", key="test", at={"ts": START})["payload"] == \
        "pytest -q"
    assert [(e["key"], e["payload"]) for e in mcp.call("policy_list", scope="repo", namespace="procedure")] == [
        ("lint", "ruff check"), ("test", "pytest -q -x")]
    mcp.call("policy_delete", scope="repo", namespace="procedure", key="lint")
    assert mcp.call("policy_get", scope="repo", namespace="procedure", key="lint") is None
    assert [e["key"] for e in mcp.call("policy_list", scope="repo", namespace="procedure", at={"rev": 4})] == [
        "lint", "test"]


def test_diff_since_lists_later_writes_in_order(mcp):
    mcp.call("graph_put_node", id=A, type="file")
    mcp.call("_harness_advance_clock", seconds=60.0)
    mcp.call("graph_put_edge", src=A, rel="imports", dst=B)
    mcp.call("policy_put", scope="repo", namespace="decision", key="k", payload=1)
    changes = mcp.call("graph_diff_since", since=START)
    assert [(c["rev"], c["op"], c["ts"]) for c in changes] == [(2, "put_edge", START + 60), (3, "put_kv", START + 60)]
    assert [c["rev"] for c in mcp.call("graph_diff_since", since={"rev": 0}, until={"rev": 2})] == [1, 2]


def test_snapshot_is_written_and_read_back_by_the_independent_reader(served, tmp_path):
    ctx, mcp = served
    mcp.call("graph_put_node", id=A, type="file", payload={"n": 1})
    mcp.call("graph_put_edge", src=A, rel="defines", dst=C)
    mcp.call("graph_put_edge", src=A, rel="imports", dst=B)
    mcp.call("policy_put", scope="repo", namespace="decision", key="k", payload="v")
    summary = mcp.call("graph_export_snapshot", name="run1")
    path = ctx.data_dir / "snapshots" / "run1.snap"
    assert summary["path"] == str(path) and path.is_file()
    old = mcp.call("graph_export_snapshot", name="at2", at={"rev": 2})
    with SnapshotReader.open(path) as snap:
        assert snap.get_node(A).payload == {"n": 1}
        assert [(e.rel, e.dst) for e in snap.get_out(A)] == [("defines", C), ("imports", B)]
        assert snap.get_kv("repo", "decision", "k").payload == "v"
    with SnapshotReader.open(ctx.data_dir / "snapshots" / "at2.snap") as snap:
        assert [(e.rel, e.dst) for e in snap.get_out(A)] == [("defines", C)]
    assert old["revision"] == 2


def test_snapshot_reads_show_the_frozen_state_not_the_live_one(mcp):
    mcp.call("graph_put_node", id=A, type="file", payload={"n": 1})
    mcp.call("graph_put_edge", src=A, rel="imports", dst=B)
    mcp.call("graph_export_snapshot", name="before")
    mcp.call("graph_put_node", id=A, type="file", payload={"n": 2})
    mcp.call("graph_delete_edge", src=A, rel="imports", dst=B)
    mcp.call("graph_put_edge", src=B, rel="imports", dst=A)
    assert mcp.call("snapshot_get_node", name="before", id=A)["payload"] == {"n": 1}
    assert edges(mcp.call("snapshot_get_out", name="before", src=A)) == [(A, "imports", B)]
    assert edges(mcp.call("snapshot_get_in", name="before", dst=A)) == []
    assert edges(mcp.call("graph_get_in", dst=A)) == [(B, "imports", A)]
    mcp.call("graph_export_snapshot", name="before")              # replaced: the reader follows the new file
    assert mcp.call("snapshot_get_node", name="before", id=A)["payload"] == {"n": 2}
    assert "no snapshot" in mcp.error("snapshot_get_node", name="never", id=A)


def test_reads_at_unix_seconds_as_the_harness_passes_them(mcp):
    mcp.call("graph_put_node", id=A, type="file", payload=1)
    mcp.call("_harness_advance_clock", seconds=100.0)
    mcp.call("graph_put_node", id=A, type="file", payload=2)
    mcp.call("policy_put", scope="s", namespace="n", key="k", payload="late")
    assert mcp.call("graph_get_node", id=A, at=START + 99.5)["payload"] == 1
    assert mcp.call("graph_get_node", id=A, at=START + 100)["payload"] == 2
    assert mcp.call("policy_get", scope="s", namespace="n", key="k", at=START + 50) is None
