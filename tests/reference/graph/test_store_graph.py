"""Nodes, edges and adjacency: insertion, deletion, traversal, supersede, tombstones (seed 003 §7.1-7.2)."""
from __future__ import annotations

import logging

import pytest

from reference.graph import At, CompactionPolicy
from reference.graph.errors import NotFound, TombstoneWarning

A, B, C, D = "file:a.py", "file:b.py", "sym:a.py#f:function:1:2", "sym:b.py#g:function:3:9"


def refs(edges):
    return [(e.src, e.rel, e.dst, e.rev) for e in edges]


def test_insert_and_traverse_both_directions(env):
    g = env.store
    assert g.put_edge(A, "defines", C) == 1
    assert g.put_edge(A, "imports", B) == 2
    assert g.put_edge(C, "calls", D) == 3
    assert g.put_edge(B, "defines", D) == 4
    assert refs(g.get_out(A)) == [(A, "defines", C, 1), (A, "imports", B, 2)]
    assert refs(g.get_out(A, rel="imports")) == [(A, "imports", B, 2)]
    assert refs(g.get_in(D)) == [(C, "calls", D, 3), (B, "defines", D, 4)]
    assert refs(g.get_in(D, rel="calls")) == [(C, "calls", D, 3)]
    assert g.get_out(D) == [] and g.get_in(A) == []
    assert g.get_out("file:never.py") == []
    assert g.get_out(A)[0].to_dict() == {"src": A, "rel": "defines", "dst": C, "rev": 1}


def test_put_on_live_edge_replaces_payload_only(env):
    g = env.store
    g.put_edge(A, "calls", B, {"w": 1})
    env.clock.advance(5)
    assert g.put_edge(A, "calls", B, {"w": 2}) == 2
    assert refs(g.get_out(A)) == [(A, "calls", B, 1)]
    e = g.get_edge(A, "calls", B)
    assert (e.payload, e.rev, e.created_rev, e.created_ts, e.updated_ts) == ({"w": 2}, 2, 1, 100.0, 105.0)
    assert g.get_edge(A, "calls", B, at=At.rev(1)).payload == {"w": 1}
    assert g.stats()["out_entries"] == 1


def test_delete_then_re_add_moves_edge_to_the_end(env):
    g = env.store
    g.put_edge(A, "calls", B)
    g.put_edge(A, "calls", C)
    assert g.delete_edge(A, "calls", B) == 3
    assert refs(g.get_out(A)) == [(A, "calls", C, 2)]
    assert g.get_edge(A, "calls", B) is None
    assert refs(g.get_in(B)) == []
    g.put_edge(A, "calls", B)
    assert refs(g.get_out(A)) == [(A, "calls", C, 2), (A, "calls", B, 4)]
    assert g.get_edge(A, "calls", B).created_rev == 4
    with pytest.raises(NotFound):
        g.delete_edge(A, "imports", B)
    with pytest.raises(NotFound):
        g.delete_edge("file:unknown.py", "calls", B)


def test_supersede_marks_old_node_and_can_be_undone(env):
    g = env.store
    old, mid, new = "mem:00000001", "mem:00000002", "mem:00000003"
    for k in (old, mid, new):
        g.put_node(k, "memory", {"text": k})  # revs 1..3
    env.clock.advance(1)
    assert g.supersede(mid, old) == 4
    assert g.get_node(old).superseded_by == mid
    assert g.get_node(old).rev == 4 and g.get_node(old).updated_ts == 101.0
    assert g.supersede(new, old) == 5
    assert g.get_node(old).superseded_by == new  # newest live supersedes edge wins
    assert refs(g.get_in(old, rel="supersedes")) == [(mid, "supersedes", old, 4), (new, "supersedes", old, 5)]
    g.delete_edge(new, "supersedes", old)  # rev 6
    assert g.get_node(old).superseded_by == mid
    g.delete_edge(mid, "supersedes", old)  # rev 7
    assert g.get_node(old).superseded_by is None and not g.get_node(old).superseded
    assert [g.get_node(old, at=At.rev(r)).superseded_by for r in range(3, 8)] == [None, mid, new, mid, None]
    assert g.get_node(old).payload == {"text": old}
    g.put_node(old, "memory", {"text": "edited"})
    assert g.get_node(old).superseded_by is None


def test_supersede_needs_both_nodes_and_distinct_ids(env):
    g = env.store
    g.put_node("mem:00000001", "memory", None)
    with pytest.raises(NotFound):
        g.supersede("mem:00000002", "mem:00000001")
    with pytest.raises(NotFound):
        g.supersede("mem:00000001", "mem:00000002")
    with pytest.raises(ValueError):
        g.supersede("mem:00000001", "mem:00000001")
    assert g.revision() == 1


def test_node_created_after_its_superseding_edge_is_born_superseded(env):
    g = env.store
    g.put_edge("mem:00000002", "supersedes", "mem:00000001")
    g.put_node("mem:00000001", "memory", None)
    assert g.get_node("mem:00000001").superseded_by == "mem:00000002"


def test_missing_referenced_node_is_allowed_and_logged(env, caplog):
    with caplog.at_level(logging.INFO, logger="reference.graph"):
        env.store.put_node(A, "file", None)
        env.store.put_edge(A, "defines", C)
    assert refs(env.store.get_out(A)) == [(A, "defines", C, 2)]
    messages = [r.getMessage() for r in caplog.records]
    assert any(C in m and "does not exist" in m for m in messages)
    assert not any(f"node {A}," in m for m in messages)


def test_tombstones_compact_inline_without_losing_history(env):
    g = env.reopen(compaction=CompactionPolicy(tombstone_ratio=0.5, max_bytes=1 << 20))
    for i in range(4):
        g.put_edge(A, "calls", f"file:m{i}.py")  # revs 1-4
    g.delete_edge(A, "calls", "file:m0.py")  # 5: 1 of 5 entries
    assert g.stats()["out_tombstones"] == 1
    g.delete_edge(A, "calls", "file:m1.py")  # 6: 2 of 6 entries
    assert g.stats()["out_tombstones"] == 2
    g.delete_edge(A, "calls", "file:m2.py")  # 7: 3 of 7, not yet half
    g.put_edge(A, "calls", "file:m5.py")  # 8: 3 of 8 -> still below 0.5
    g.delete_edge(A, "calls", "file:m3.py")  # 9: 4 of 9 -> still below
    g.delete_edge(A, "calls", "file:m5.py")  # 10: 5 of 10 -> compact
    s = g.stats()
    assert (s["out_entries"], s["out_tombstones"], s["out_cold_entries"]) == (0, 0, 10)
    assert g.get_out(A) == []
    assert [len(g.get_out(A, at=At.rev(r))) for r in range(11)] == [0, 1, 2, 3, 4, 3, 2, 1, 2, 1, 0]


def test_tombstone_build_up_warns_when_compaction_is_off(env):
    g = env.reopen(compaction=CompactionPolicy(enabled=False, warn_ratio=0.5))
    g.put_edge(A, "calls", B)
    g.put_edge(A, "calls", C)
    with pytest.warns(TombstoneWarning, match="in:") as caught:
        g.delete_edge(A, "calls", B)  # out:A 1 of 3 (no warning), in:B 1 of 2
    assert len(caught) == 1 and caught[0].filename == __file__
    with pytest.warns(TombstoneWarning) as caught:
        g.delete_edge(A, "calls", C)  # out:A 2 of 4, in:C 1 of 2
    assert sorted(str(w.message).split("'")[1][:3] for w in caught) == ["in:", "out"]
    assert g.stats()["out_tombstones"] == 2
    assert g.compact()["lists_compacted"] == 3  # out:A, in:B, in:C
    s = g.stats()
    assert (s["out_tombstones"], s["in_tombstones"], s["out_cold_entries"]) == (0, 0, 4)
    assert refs(g.get_out(A, at=At.rev(2))) == [(A, "calls", B, 1), (A, "calls", C, 2)]
    assert refs(g.get_out(A, at=At.rev(3))) == [(A, "calls", C, 2)]


def test_everything_persists_across_reopen(env):
    g = env.store
    g.put_node(A, "file", {"lang": "py"}, scope="repo", run_id="r1", task_id="t1")
    g.register_relation("owns")
    g.put_edge(A, "owns", B, {"since": 1})
    g.put_kv("repo", "decision", "style", {"use": "ruff"})
    g = env.reopen()
    assert g.revision() == 3
    assert g.relations()["owns"] == 11
    node = g.get_node(A)
    assert (node.payload, node.scope, node.run_id, node.task_id) == ({"lang": "py"}, "repo", "r1", "t1")
    assert refs(g.get_out(A)) == [(A, "owns", B, 2)]
    assert g.get_kv_latest("repo", "decision", "style").payload == {"use": "ruff"}
