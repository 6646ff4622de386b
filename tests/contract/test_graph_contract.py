"""Contract of `graph` (seed 003 §4-§5): nodes, edges out and in, tombstoned deletes, supersedes.

What a scenario (graph-pit) relies on, read at the latest view:
- `graph_put_node` then `graph_get_node` gives {type, payload, superseded_by: None}; a later put
  replaces type and payload; a node never written reads as None.
- `graph_put_edge(src, rel, dst)` is seen by `graph_get_out(src)` as the sorted pair [rel, dst] and by
  `graph_get_in(dst)` as [src, rel]; a `rel` argument keeps only that relation; putting an edge again
  does not duplicate it; an edge may point at a node that was never written (seed 003 §4.8).
- `graph_delete_edge` hides the edge from both directions (a tombstone); putting it again revives it;
  deleting an edge that is not live is refused (LookupError or ValueError).
- `graph_supersede(new, old)` sets old's `superseded_by` to new and adds the edge new -supersedes-> old.
- Refused input (§4.8): an unknown relation or an id outside the canonical key formats raises
  ValueError naming it, and nothing is written.
- Everything written is there after close and reopen.
"""
import pytest

from bench.backends import Capability as C

CAPABILITY = C.GRAPH


def test_put_and_get_node(backend, backend_clock):
    backend_clock.advance(1)
    backend.graph_put_node("file:g1/app.py", "file", {"lang": "python", "lines": 120})
    assert backend.graph_get_node("file:g1/app.py") == {
        "type": "file", "payload": {"lang": "python", "lines": 120}, "superseded_by": None}
    assert backend.graph_get_node("file:g1/never.py") is None


def test_a_later_put_replaces_the_node(backend, backend_clock):
    backend_clock.advance(1)
    backend.graph_put_node("sym:g2/a.py#run:function:1:9", "sym", {"v": 1})
    backend_clock.advance(1)
    backend.graph_put_node("sym:g2/a.py#run:function:1:9", "sym", {"v": 2, "note": "renamed arg"})
    assert backend.graph_get_node("sym:g2/a.py#run:function:1:9")["payload"] == {"v": 2, "note": "renamed arg"}


def test_edges_are_seen_out_and_in_sorted_and_by_relation(backend, backend_clock):
    f, s1, s2, m = "file:g3/m.py", "sym:g3/m.py#a:function:1:4", "sym:g3/m.py#b:function:6:9", "mem:0000a003"
    backend_clock.advance(1)
    backend.graph_put_node(f, "file", {})
    for src, rel, dst in [(f, "defines", s2), (f, "defines", s1), (s1, "calls", s2), (f, "derived_from", m)]:
        backend_clock.advance(1)
        backend.graph_put_edge(src, rel, dst, {"w": 1})
    assert backend.graph_get_out(f) == [["defines", s1], ["defines", s2], ["derived_from", m]]
    assert backend.graph_get_out(f, "defines") == [["defines", s1], ["defines", s2]]
    assert backend.graph_get_out(f, "calls") == []
    assert backend.graph_get_in(s2) == [[f, "defines"], [s1, "calls"]]
    assert backend.graph_get_in(s2, "calls") == [[s1, "calls"]]
    assert backend.graph_get_in(m) == [[f, "derived_from"]]   # m was never written as a node
    backend_clock.advance(1)
    backend.graph_put_edge(f, "defines", s1, {"w": 2})       # again: still one edge
    assert backend.graph_get_out(f, "defines") == [["defines", s1], ["defines", s2]]


def test_delete_tombstones_the_edge_both_ways_and_a_put_revives_it(backend, backend_clock):
    a, b = "file:g4/a.py", "file:g4/b.py"
    backend_clock.advance(1)
    backend.graph_put_edge(a, "imports", b)
    backend.graph_put_edge(a, "references", b)
    backend_clock.advance(1)
    backend.graph_delete_edge(a, "imports", b)
    assert backend.graph_get_out(a) == [["references", b]]
    assert backend.graph_get_in(b) == [[a, "references"]]
    with pytest.raises((LookupError, ValueError)):
        backend.graph_delete_edge(a, "imports", b)
    backend_clock.advance(1)
    backend.graph_put_edge(a, "imports", b)
    assert backend.graph_get_out(a) == [["imports", b], ["references", b]]


def test_supersede_marks_the_old_node_and_links_new_to_old(backend, backend_clock):
    old, new = "mem:0000b001", "mem:0000b002"
    backend_clock.advance(1)
    backend.graph_put_node(old, "mem", {"rule": "tabs"})
    backend.graph_put_node(new, "mem", {"rule": "spaces"})
    backend_clock.advance(1)
    backend.graph_supersede(new, old)
    assert backend.graph_get_node(old) == {"type": "mem", "payload": {"rule": "tabs"}, "superseded_by": new}
    assert backend.graph_get_node(new)["superseded_by"] is None
    assert ["supersedes", old] in backend.graph_get_out(new)
    assert backend.graph_get_in(old, "supersedes") == [[new, "supersedes"]]


@pytest.mark.parametrize("call, named", [
    (lambda b: b.graph_put_edge("file:g5/a.py", "likes", "file:g5/b.py"), "likes"),
    (lambda b: b.graph_put_node("not-a-key", "x"), "not-a-key"),
    (lambda b: b.graph_put_edge("not-a-key", "calls", "file:g5/b.py"), "not-a-key"),
])
def test_bad_input_is_refused_by_name_and_writes_nothing(backend, backend_clock, call, named):
    backend_clock.advance(1)
    with pytest.raises(ValueError, match=named):
        call(backend)
    assert backend.graph_get_out("file:g5/a.py") == [] and backend.graph_get_in("file:g5/b.py") == []
    assert backend.graph_get_node("file:g5/a.py") is None


def test_graph_survives_close_and_reopen(module_store, backend_clock):
    backend_clock.advance(1)
    module_store.backend.graph_put_node("file:g6/a.py", "file", {"v": 1})
    module_store.backend.graph_put_edge("file:g6/a.py", "tests", "sym:g6/b.py#f:function:1:2")
    again = module_store.reopen()
    assert again.graph_get_node("file:g6/a.py")["payload"] == {"v": 1}
    assert again.graph_get_out("file:g6/a.py") == [["tests", "sym:g6/b.py#f:function:1:2"]]
