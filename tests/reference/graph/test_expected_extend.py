"""The miss index (expected.py) kept current by a handle's own commits equals one rebuilt from the log."""
from __future__ import annotations

from reference.clock import LogicalClock
from reference.graph import GraphStore
from reference.graph.expected import ExpectedRecords

A, B, C = "file:a.py", "file:b.py", "mem:00000001"


def _rebuilt(g: GraphStore) -> ExpectedRecords:
    fresh = ExpectedRecords()
    g._read(fresh.refresh)
    return fresh


def _same(a: ExpectedRecords, b: ExpectedRecords) -> None:
    for name in ("node_rev", "out_first", "in_first", "edge_first", "kv_first", "seen"):
        assert getattr(a, name) == getattr(b, name), name


def test_commits_extend_the_index_once_a_miss_built_it(tmp_path):
    g = GraphStore.open(tmp_path / "g", clock=LogicalClock(1000.0), sync=False)
    g.put_node(A, "file", None)
    assert g._expected.seen == 0                      # nothing built before a miss
    assert g.get_node("file:missing.py") is None      # the miss builds it
    assert g._expected.seen == g.revision()
    with g.batch():
        g.put_edge(A, "calls", B)
        g.put_node(C, "memory", {"x": 1})
        g.put_kv("repo", "decision", "k", 1)
    g.put_edge(B, "imports", A)
    g.delete_edge(A, "calls", B)
    assert g._expected.seen == g.revision()           # extended by the commits, no read needed
    _same(g._expected, _rebuilt(g))
    g.close()


def test_another_handles_writes_are_read_from_the_log(tmp_path):
    clock = LogicalClock(1000.0)
    g1 = GraphStore.open(tmp_path / "g", clock=clock, sync=False)
    g1.put_node(A, "file", None)
    assert g1.get_node("file:missing.py") is None
    g2 = GraphStore.open(tmp_path / "g", clock=clock, sync=False)
    g2.put_edge(A, "calls", B)                        # g1's index now has a gap
    g1.put_node(C, "memory", None)                    # not contiguous: left to refresh
    assert g1._expected.seen < g1.revision()
    assert g1.get_node("file:other.py") is None       # a miss catches up from the log
    _same(g1._expected, _rebuilt(g1))
    g2.close()
    g1.close()
