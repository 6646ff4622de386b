"""Telemetry events (§4.7), batches, concurrent readers and map growth."""
from __future__ import annotations

import threading

import pytest

from reference.clock import LogicalClock
from reference.graph import At, GraphStore
from reference.graph.errors import MapFull, NotFound
from reference.telemetry import ListSink

A, B, C = "file:a.py", "file:b.py", "file:c.py"


def ev(e):
    return (e.op, e.memory_id, e.entity_type, e.scope, e.run_id, e.task_id, e.timestamp)


def test_telemetry_events_for_every_kind_of_operation(env):
    g, sink, clock = env.store, env.sink, env.clock
    g.set_context(run_id="run-7", task_id="task-3")
    g.put_node(A, "file", {"x": 1}, scope="repo")
    clock.advance(1)
    g.put_node(A, "file", {"x": 2}, scope="repo", run_id="run-8")
    g.put_edge(A, "calls", B)
    g.delete_edge(A, "calls", B)
    g.put_kv("repo", "decision", "style", "ruff")
    g.put_kv("repo", "decision", "style", "black")
    g.delete_kv("repo", "decision", "style")
    clock.advance(1)
    g.get_node(A)
    g.get_out(A, at=At.rev(3))
    g.list_kv("repo", "decision")
    assert [ev(e) for e in sink.events] == [
        ("write", A, "file", "repo", "run-7", "task-3", 100.0),
        ("overwrite", A, "file", "repo", "run-8", "task-3", 101.0),
        ("write", A, "edge", None, "run-7", "task-3", 101.0),
        ("delete", A, "edge", None, "run-7", "task-3", 101.0),
        ("write", "kv:repo:decision:style", "decision", "repo", "run-7", "task-3", 101.0),
        ("overwrite", "kv:repo:decision:style", "decision", "repo", "run-7", "task-3", 101.0),
        ("delete", "kv:repo:decision:style", "decision", "repo", "run-7", "task-3", 101.0),
        ("read", A, "file", "repo", "run-7", "task-3", 102.0),
        ("query", A, "edge", None, "run-7", "task-3", 102.0),
        ("query", "kv:repo:decision", "decision", "repo", "run-7", "task-3", 102.0),
    ]
    assert sink.events[2].extra == {"rev": 3, "kind": "edge", "rel": "calls", "dst": B}
    assert sink.events[8].extra == {"kind": "out", "rel": None, "count": 1, "at": "rev:3"}
    assert all(e.latency_ms >= 0 and e.source == "store" for e in sink.events)
    assert g.get_node(A).run_id == "run-8"


def test_supersede_emits_an_overwrite_of_the_old_item(env):
    g = env.store
    g.put_node("mem:00000001", "memory", None)
    g.put_node("mem:00000002", "memory", None)
    g.supersede("mem:00000002", "mem:00000001")
    last = env.sink.events[-1]
    assert (last.op, last.memory_id, last.extra["superseded_by"]) == ("overwrite", "mem:00000001", "mem:00000002")


def test_failed_writes_emit_nothing(env):
    with pytest.raises(NotFound):
        env.store.delete_edge(A, "calls", B)
    assert env.sink.events == []


def test_batch_is_atomic_and_invisible_until_commit(env):
    g = env.store
    g.put_edge(A, "calls", B)
    with pytest.raises(RuntimeError):
        with g.batch():
            g.put_edge(A, "calls", C)
            g.delete_edge(A, "calls", B)
            assert [e.dst for e in g.get_out(A)] == [B]  # reads see the committed state
            raise RuntimeError("caller gave up")
    assert [e.dst for e in g.get_out(A)] == [B] and g.revision() == 1

    def writes():
        return [e.op for e in env.sink.events if e.op not in ("read", "query")]
    assert writes() == ["write"]
    with g.batch():
        assert g.put_edge(A, "calls", C) == 2
        with pytest.raises(NotFound):  # a refused op leaves the batch usable
            g.delete_edge(A, "imports", B)
        assert g.delete_edge(A, "calls", B) == 3
        assert writes() == ["write"]  # events wait for the commit
    assert [e.dst for e in g.get_out(A)] == [C]
    assert writes() == ["write", "write", "delete"]


def test_bulk_apis(env):
    g = env.store
    revs = g.put_edges([(A, "calls", B), (A, "calls", C, {"w": 2}), {"src": B, "rel": "imports", "dst": C}])
    assert revs == [1, 2, 3]
    assert g.get_edge(A, "calls", C).payload == {"w": 2}
    assert [(e.src, e.dst) for e in g.get_in(C)] == [(A, C), (B, C)]


def test_concurrent_readers_see_consistent_prefixes(env):
    g = env.store
    g.put_node(A, "file", None)
    errors: list[BaseException] = []
    done = threading.Event()

    def reader():
        try:
            last = 0
            while not done.is_set():
                n = len(g.get_out(A))
                rev = g.revision()
                assert n >= last and n <= rev
                last = n
                g.get_node(A)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=reader) for _ in range(4)]
    for t in threads:
        t.start()
    for i in range(200):
        g.put_edge(A, "calls", f"file:m{i}.py")
    done.set()
    for t in threads:
        t.join()
    assert errors == []
    assert len(g.get_out(A)) == 200


def test_map_grows_when_full(tmp_path):
    g = GraphStore.open(tmp_path / "g", clock=LogicalClock(), telemetry=ListSink(), map_size=64 * 1024, sync=False)
    try:
        for i in range(300):
            g.put_node(f"file:m{i}.py", "file", {"blob": "x" * 200})
        with g.batch():
            for i in range(300):
                g.put_edge("file:m0.py", "calls", f"file:m{i}.py")
        assert g.stats()["map_size"] > 64 * 1024
        assert len(g.get_out("file:m0.py")) == 300
        assert g.get_node("file:m299.py").payload == {"blob": "x" * 200}
    finally:
        g.close()


def test_a_batch_that_overflows_the_map_rolls_back_and_can_be_rerun(tmp_path):
    g = GraphStore.open(tmp_path / "g", clock=LogicalClock(), map_size=256 * 1024, sync=False)

    def big_batch():
        with g.batch():
            for i in range(2000):
                g.put_node(f"file:n{i}.py", "file", {"blob": "y" * 300})
    try:
        g.put_node(A, "file", None)
        with pytest.raises(MapFull, match="run the batch again"):
            big_batch()
        assert g.revision() == 1 and g.get_node("file:n0.py") is None
        for _ in range(4):
            try:
                big_batch()
                break
            except MapFull:
                continue
        assert g.revision() == 2001 and g.get_node("file:n1999.py").payload == {"blob": "y" * 300}
    finally:
        g.close()
