"""Contract of `snapshot` (seed 003 §4.6, §9): an exported snapshot reads back independently and equals the live view.

- `snapshot_export(name)` captures the graph as it is now; `snapshot_get_node/out/in(name, ...)` give
  exactly what `graph_get_node/out/in` gave at export time (same normalised values).
- Later writes do not change an exported snapshot; exporting again under another name sees them.
- A snapshot never exported is refused (LookupError or ValueError naming it); a name that is not
  letters, digits, '.', '_' or '-' is refused with ValueError and nothing is written outside the
  store's folder.
"""
import pytest

from bench.backends import Capability as C

from tests.contract.conftest import need

CAPABILITY = C.SNAPSHOT

NODES = ["file:s1/a.py", "file:s1/b.py", "sym:s1/a.py#f:function:1:5", "mem:0000d001", "mem:0000d002"]


def _live(backend, ids):
    return {i: (backend.graph_get_node(i), backend.graph_get_out(i), backend.graph_get_in(i)) for i in ids}


def _snap(backend, name, ids):
    return {i: (backend.snapshot_get_node(name, i), backend.snapshot_get_out(name, i), backend.snapshot_get_in(name, i))
            for i in ids}


def _build(backend, clock):
    a, b, f, m1, m2 = NODES
    for nid, kind in [(a, "file"), (f, "sym"), (m1, "mem"), (m2, "mem")]:
        clock.advance(1)
        backend.graph_put_node(nid, kind, {"id": nid})
    for src, rel, dst in [(a, "defines", f), (f, "calls", f), (a, "imports", b), (m1, "derived_from", a)]:
        clock.advance(1)
        backend.graph_put_edge(src, rel, dst, {"w": 1})
    clock.advance(1)
    backend.graph_delete_edge(a, "imports", b)
    clock.advance(1)
    backend.graph_supersede(m2, m1)


def test_export_then_read_back_equals_the_live_view(backend, backend_clock):
    need(backend, C.GRAPH)
    _build(backend, backend_clock)
    live = _live(backend, NODES + ["file:s1/none.py"])
    backend.snapshot_export("s1-cp1")
    assert _snap(backend, "s1-cp1", NODES + ["file:s1/none.py"]) == live
    assert live["mem:0000d001"][0]["superseded_by"] == "mem:0000d002"   # the view is not trivially empty
    assert live["file:s1/a.py"][1] == [["defines", "sym:s1/a.py#f:function:1:5"]]


def test_later_writes_leave_an_exported_snapshot_alone(backend, backend_clock):
    need(backend, C.GRAPH)
    a, b = "file:s2/a.py", "file:s2/b.py"
    backend_clock.advance(1)
    backend.graph_put_node(a, "file", {"v": 1})
    backend.graph_put_edge(a, "imports", b)
    before = _live(backend, [a, b])
    backend.snapshot_export("s2-before")
    backend_clock.advance(1)
    backend.graph_put_node(a, "file", {"v": 2})
    backend.graph_delete_edge(a, "imports", b)
    backend.graph_put_edge(b, "imports", a)
    after = _live(backend, [a, b])
    backend.snapshot_export("s2-after")
    assert _snap(backend, "s2-before", [a, b]) == before
    assert _snap(backend, "s2-after", [a, b]) == after != before


def test_unknown_and_bad_snapshot_names_are_refused(module_store):
    backend, outside = module_store.backend, module_store.folder.parent
    files_outside = lambda: {p for p in outside.rglob("*") if module_store.folder not in p.parents}  # noqa: E731
    before = files_outside()
    with pytest.raises((LookupError, ValueError), match="never-exported"):
        backend.snapshot_get_node("never-exported", "file:s3/a.py")
    for bad in ["../../escape", "a/b", ""]:
        with pytest.raises(ValueError):
            backend.snapshot_export(bad)
    assert files_outside() - before == set()
