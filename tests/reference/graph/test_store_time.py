"""Point-in-time reads by revision and by timestamp, policy KV history, diff_since (seed 003 §5.1, §7.3)."""
from __future__ import annotations

import pytest

from reference.graph import At
from reference.graph.errors import NotFound, RevisionOutOfRange, TimeWentBackwards

A, B = "file:a.py", "file:b.py"


def build(env):
    """rev ts   op
       1   100  put_node A v1
       2   110  put_edge A calls B
       3   110  put_node A v2
       4   120  delete_edge A calls B
       5   130  put_kv repo/decision/style black
       6   130  put_kv repo/decision/style ruff
       7   140  delete_kv repo/decision/style
    """
    g, c = env.store, env.clock
    g.put_node(A, "file", {"v": 1})
    c.set(110)
    g.put_edge(A, "calls", B)
    g.put_node(A, "file", {"v": 2})
    c.set(120)
    g.delete_edge(A, "calls", B)
    c.set(130)
    g.put_kv("repo", "decision", "style", "black")
    g.put_kv("repo", "decision", "style", "ruff", task_id="t9")
    c.set(140)
    g.delete_kv("repo", "decision", "style")
    return g


@pytest.mark.parametrize("x, rev", [(0, 0), (99.9, 0), (100, 1), (109.99, 1), (110, 3), (115, 3), (120, 4),
                                    (130, 6), (139, 6), (140, 7), (1e12, 7)])
def test_timestamps_resolve_to_the_last_revision_at_or_before(env, x, rev):
    assert build(env).resolve(At.ts(x)) == rev


def test_node_versions_by_revision_and_timestamp(env):
    g = build(env)
    assert g.get_node(A, at=At.rev(0)) is None
    assert [g.get_node(A, at=At.rev(r)).payload for r in (1, 2)] == [{"v": 1}, {"v": 1}]
    v2 = g.get_node(A, at=At.rev(3))
    assert (v2.payload, v2.rev, v2.created_rev, v2.created_ts, v2.updated_ts) == ({"v": 2}, 3, 1, 100.0, 110.0)
    assert g.get_node(A, at=At.ts(105)).payload == {"v": 1}
    assert g.get_node(A, at=At.ts(110)).payload == {"v": 2}
    assert g.get_node(A) == g.get_node(A, at=At.rev(7)) == v2


def test_adjacency_by_revision_and_timestamp(env):
    g = build(env)
    out = [[e.dst for e in g.get_out(A, at=At.rev(r))] for r in range(8)]
    assert out == [[], [], [B], [B], [], [], [], []]
    assert [e.src for e in g.get_in(B, at=At.ts(119.5))] == [A]
    assert g.get_in(B, at=At.ts(120)) == []
    assert g.get_edge(A, "calls", B, at=At.ts(115)).created_ts == 110.0
    assert g.get_edge(A, "calls", B, at=At.ts(125)) is None


def test_kv_history(env):
    g = build(env)
    values = [(e.payload, e.rev, e.task_id) if e else None
              for e in (g.get_kv_latest("repo", "decision", "style", at=At.rev(r)) for r in range(4, 8))]
    assert values == [None, ("black", 5, None), ("ruff", 6, "t9"), None]
    assert g.get_kv_latest("repo", "decision", "style") is None
    assert [e.payload for e in g.list_kv("repo", "decision", at=At.ts(135))] == ["ruff"]
    with pytest.raises(NotFound):
        g.delete_kv("repo", "decision", "style")


def test_list_kv_is_sorted_by_key_and_scoped(env):
    g = env.store
    for key in ("zeta", "alpha", "Beta", "émile"):
        g.put_kv("repo", "constraint", key, {"k": key})
    g.put_kv("repo", "decision", "alpha", 1)
    g.put_kv("repo2", "constraint", "alpha", 2)
    assert [e.key for e in g.list_kv("repo", "constraint")] == ["Beta", "alpha", "zeta", "émile"]
    assert [e.key for e in g.list_kv("repo", "constraint", at=At.rev(2))] == ["alpha", "zeta"]
    assert g.list_kv("nobody", "constraint") == []


def test_diff_since(env):
    g = build(env)
    changes = g.diff_since(At.rev(3))
    assert [(c.rev, c.op, c.overwrite) for c in changes] == [(4, "delete_edge", True), (5, "put_kv", False),
                                                            (6, "put_kv", True), (7, "delete_kv", True)]
    assert (changes[0].src, changes[0].rel, changes[0].dst) == (A, "calls", B)
    assert (changes[2].scope, changes[2].namespace, changes[2].kv_key, changes[2].task_id) == (
        "repo", "decision", "style", "t9")
    assert [c.rev for c in g.diff_since(At.ts(110))] == [4, 5, 6, 7]
    assert [c.rev for c in g.diff_since(At.ts(0), until=At.ts(110))] == [1, 2, 3]
    first = g.diff_since(At.rev(0))[0]
    assert first.to_dict()["key"] == A and first.ts == 100.0
    assert g.diff_since(At.rev(7)) == []
    with pytest.raises(TypeError, match="At"):
        g.diff_since(5)


def test_reads_reject_future_revisions_and_bare_numbers(env):
    g = build(env)
    with pytest.raises(RevisionOutOfRange):
        g.get_out(A, at=At.rev(8))
    with pytest.raises(RevisionOutOfRange):
        g.get_node("file:never.py", at=At.rev(99))
    with pytest.raises(TypeError, match="At"):
        g.get_node(A, at=3)


def test_explicit_timestamps_may_not_go_back(env):
    g = env.store
    g.put_node(A, "file", None, ts=500.0)
    g.put_node(A, "file", None, ts=500.0)
    with pytest.raises(TimeWentBackwards):
        g.put_node(B, "file", None, ts=499.0)
    assert g.revision() == 2
    g.put_node(B, "file", None)  # the clock says 100: the write is recorded at 500, the last time
    assert g.get_node(B).created_ts == 500.0


def test_at_forms():
    assert At.parse({"rev": 3}) == At.rev(3)
    assert At.parse("ts:12.5") == At.ts(12.5)
    assert At.parse("rev:4") == At.rev(4)
    assert At.parse(None) is None
    assert At.rev(2).to_dict() == {"rev": 2} and str(At.ts(1)) == "ts:1.0"
    for bad in (3, "yesterday", {"rev": 1, "ts": 2}, [1]):
        with pytest.raises(TypeError):
            At.parse(bad)
    for bad in ({"rev": -1}, {"rev": 1.5}, "rev:x", {"ts": float("nan")}, {"when": 1}):
        with pytest.raises(ValueError):
            At.parse(bad)


@pytest.mark.parametrize("ts", [1e308, 2.0 ** 64, -1.0])
def test_a_write_outside_the_time_range_is_refused_and_poisons_nothing(env, ts):
    g = env.store
    with pytest.raises(ValueError, match="year 9999"):
        g.put_node(A, "file", None, ts=ts)
    assert g.revision() == 0
    g.put_node(A, "file", None, ts=500.0)   # a real time still works afterwards
    assert g.get_node(A).created_ts == 500.0
