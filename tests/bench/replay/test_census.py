"""The write census: acknowledged writes are read back; deleted ones are exempt; unreadable kinds are visible."""
from __future__ import annotations

import json

from bench.backends.capabilities import Capability as C
from bench.backends.reference.backend import ReferenceBackend
from bench.backends.registry import register_backend, unregister_backend
from bench.run import run_suite
from bench.scenario.loader import load_scenario

HEADER = {"scenario": "c", "format": 1, "start_time": 1_700_000_000}
NODE = {"tool": "graph_put_node", "args": {"id": "file:a", "type": "t"}}
NODE_B = {"tool": "graph_put_node", "args": {"id": "file:b", "type": "t"}}
EDGE = {"tool": "graph_put_edge", "args": {"src": "file:a", "rel": "references", "dst": "file:b"}}
UNEDGE = {"tool": "graph_delete_edge", "args": {"src": "file:a", "rel": "references", "dst": "file:b"}}
WRITE = {"tool": "memory_write_structured", "args": {"text": "alpha"}, "as": "m"}
POLICY = {"tool": "policy_put", "args": {"scope": "s", "namespace": "n", "key": "k", "payload": 1}}


def census(tmp_path, *steps, backend="reference"):
    path = tmp_path / "c.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in [HEADER, *steps]))
    s = run_suite(backend, [load_scenario(path)], tmp_path / "out").scenarios["c"]
    return s


def test_every_acknowledged_write_is_read_back(tmp_path):
    s = census(tmp_path, WRITE, NODE, NODE_B, EDGE, POLICY)
    assert s["census"] == {"acknowledged": 5, "verified": 5, "lost": 0, "unverifiable": 0}
    assert s["checks"] == {"passed": 1, "total": 1, "rate": 1.0} and s["metrics"]["census.intact"] == 1.0


def test_a_write_deleted_by_a_later_step_is_not_counted(tmp_path):
    s = census(tmp_path, NODE, NODE_B, EDGE, UNEDGE)
    assert s["census"] == {"acknowledged": 2, "verified": 2, "lost": 0, "unverifiable": 0}


class ForgetsEdges(ReferenceBackend):
    name = "test-forgets-edges"
    options = ()

    def graph_put_edge(self, src, rel, dst, payload=None):
        return None  # acknowledged, never stored


class NoGet(ReferenceBackend):
    name = "test-no-get"
    options = ()
    capabilities = ReferenceBackend.capabilities - {C.MEMORY_GET}


def test_a_lost_write_fails_a_check_named_with_its_line(tmp_path):
    register_backend(ForgetsEdges.name, ForgetsEdges)
    try:
        s = census(tmp_path, NODE, NODE_B, EDGE, backend=ForgetsEdges.name)
    finally:
        unregister_backend(ForgetsEdges.name)
    assert s["census"] == {"acknowledged": 3, "verified": 2, "lost": 1, "unverifiable": 0}
    assert s["checks"]["passed"] == 0 and s["metrics"]["census.intact"] == 0.0
    assert s["problems"] == [{"line": 4, "step": "graph_put_edge", "status": "failed",
                              "message": "census: acknowledged write cannot be read back"}]


def test_a_write_the_backend_cannot_read_back_is_unverifiable_not_passed(tmp_path):
    register_backend(NoGet.name, NoGet)
    try:
        s = census(tmp_path, WRITE, backend=NoGet.name)
    finally:
        unregister_backend(NoGet.name)
    assert s["census"] == {"acknowledged": 1, "verified": 0, "lost": 0, "unverifiable": 1}
    assert s["checks"]["total"] == 0 and "census.intact" not in s["metrics"]


def test_lost_writes_show_in_the_report_table(tmp_path):
    from bench.report.report import problem_count
    s = {"steps": {"error": 1, "failed": 2}, "directives": {"error": 0, "failed": 1}, "census": {"lost": 3}}
    assert problem_count(s) == 7
    assert problem_count({"steps": {"error": 0, "failed": 0}}) == 0  # a version 1 report


def test_reverse_alias_map_stays_exact_through_binds_rebinds_and_shared_ids(tmp_path):
    """`to_scenario_id` after incremental `bind`s equals a from-scratch reverse of the aliases."""
    import random

    from bench.replay.context import ReplayContext
    from reference.clock import LogicalClock
    rng = random.Random(15)
    ctx = ReplayContext(backend=None, clock=LogicalClock(0.0), scenario_dir=tmp_path, workdir=tmp_path)
    for n in range(300):
        ctx.bind(f"a{rng.randrange(120)}", f"id{rng.randrange(150)}")   # rebinds and shared ids both happen
        if n % 5 == 0:
            truth = {v: k for k, v in ctx.aliases.items()}
            for i in range(150):
                assert ctx.to_scenario_id(f"id{i}") == truth.get(f"id{i}", f"id{i}"), (n, i)
    ctx.aliases["direct"] = "id-direct"   # a write outside bind is still seen
    assert ctx.to_scenario_id("id-direct") == "direct"


NODES = {"tool": "graph_put_nodes", "args": {"nodes": [["file:a", "t", {}], ["file:b", "t", {}], ["file:c", "t", {}]]}}
EDGES = {"tool": "graph_put_edges", "args": {"edges": [["file:a", "references", "file:b"],
                                                       ["file:a", "references", "file:c"],
                                                       ["file:b", "references", "file:c"]]}}
UNEDGES = {"tool": "graph_delete_edges", "args": {"edges": [["file:a", "references", "file:c"]]}}


class DropsOneBatchEdge(ReferenceBackend):
    name = "test-drops-one-batch-edge"
    options = ()

    def graph_put_edges(self, edges):
        super().graph_put_edges([e for e in edges if tuple(e) != ("file:b", "references", "file:c")])


def test_batch_graph_writes_are_counted_per_record_and_deletes_exempt(tmp_path):
    s = census(tmp_path, NODES, EDGES, UNEDGES)
    assert s["census"] == {"acknowledged": 5, "verified": 5, "lost": 0, "unverifiable": 0}


def test_one_edge_lost_from_a_batch_is_named_with_its_key(tmp_path):
    register_backend(DropsOneBatchEdge.name, DropsOneBatchEdge)
    try:
        s = census(tmp_path, NODES, EDGES, backend=DropsOneBatchEdge.name)
    finally:
        unregister_backend(DropsOneBatchEdge.name)
    assert s["census"] == {"acknowledged": 6, "verified": 5, "lost": 1, "unverifiable": 0}
    assert s["metrics"]["census.intact"] == 0.0
    assert [p["step"] for p in s["problems"]] == ["graph_put_edges"]
