"""Graph batch steps and traversal: the GraphOps defaults (one write at a time) and the reference's
one-transaction batches leave the same graph, and `graph_traverse` walks exactly `depth` hops."""
from __future__ import annotations

import pytest
from pydantic import ValidationError

from bench.backends.ops.graph import GraphOps
from bench.backends.registry import create_backend
from bench.steps.graph_bulk import Edges, Traverse
from reference.clock import LogicalClock
from reference.telemetry import NullSink

A, B, C, D, E = (f"file:src/{x}.py" for x in "abcde")
EDGES = [(A, "imports", B), (B, "imports", C), (C, "imports", D), (A, "calls", E), (E, "calls", A), (D, "tests", A)]


@pytest.fixture
def two(tmp_path):
    out = []
    for name in ("bulk", "loop"):
        b = create_backend("reference")
        b.open(tmp_path / name, LogicalClock(1000.0), NullSink())
        out.append(b)
    yield out
    for b in out:
        b.close()


def test_bulk_and_one_at_a_time_leave_the_same_graph(two):
    bulk, loop = two
    bulk.graph_put_nodes([(A, "file", {"n": 1}), (B, "file", None)])
    GraphOps.graph_put_nodes(loop, [(A, "file", {"n": 1}), (B, "file", None)])
    bulk.graph_put_edges(EDGES)
    GraphOps.graph_put_edges(loop, EDGES)
    bulk.graph_delete_edges(EDGES[1:2])
    GraphOps.graph_delete_edges(loop, EDGES[1:2])
    for key in (A, B, C, D, E):
        assert bulk.graph_get_out(key) == loop.graph_get_out(key)
        assert bulk.graph_get_in(key) == loop.graph_get_in(key)
        assert bulk.graph_get_node(key) == loop.graph_get_node(key)
    assert bulk.graph_get_out(B) == [] and bulk.graph_get_node(A)["payload"] == {"n": 1}


def test_a_failing_batch_writes_nothing_in_the_reference(two):
    bulk, _ = two
    with pytest.raises(Exception, match="likes"):
        bulk.graph_put_edges([(A, "calls", B), (A, "likes", C)])
    assert bulk.graph_get_out(A) == []


def test_traverse_walks_depth_hops_in_either_direction(two):
    bulk, _ = two
    bulk.graph_put_edges(EDGES)
    assert bulk.graph_traverse(A, 1) == sorted([B, E])
    assert bulk.graph_traverse(A, 2) == sorted([B, C, E])          # E -> A is back at the start
    assert bulk.graph_traverse(A, 4) == sorted([B, C, D, E])
    assert bulk.graph_traverse(A, 3, rel="imports") == sorted([B, C, D])
    assert bulk.graph_traverse(A, 1, direction="in") == sorted([D, E])
    assert bulk.graph_traverse(C, 2, direction="in") == sorted([A, B])


def test_traverse_at_a_past_time(tmp_path):
    clock = LogicalClock(1000.0)
    b = create_backend("reference")
    b.open(tmp_path / "s", clock, NullSink())
    try:
        b.graph_put_edges(EDGES[:2])
        clock.advance(10)
        b.graph_put_edges(EDGES[2:])
        b.graph_delete_edges(EDGES[:1])
        assert b.graph_traverse(A, 3, at=1000.0) == sorted([B, C])
        assert b.graph_traverse(A, 3, at=999.0) == []
        assert b.graph_traverse(A, 3) == [E]       # A -imports-> B is gone now; E -> A is the start
    finally:
        b.close()


def test_arguments_are_checked():
    with pytest.raises(ValidationError):
        Traverse(src=A, depth=0)
    with pytest.raises(ValidationError):
        Traverse(src=A, depth=2, direction="sideways")
    with pytest.raises(ValidationError):
        Edges(edges=[[A, "calls"]])
