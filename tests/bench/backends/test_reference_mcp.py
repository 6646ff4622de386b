"""reference-mcp: the reference store through a real `codemem-bench serve` stdio session."""
from __future__ import annotations

import json

import pytest

from bench.backends import Capability as C, create_backend
from bench.run import run_suite
from bench.scenario.suites import resolve
from reference.clock import LogicalClock
from reference.telemetry import ListSink

# capability -> the MCP tools it is served by (seed names); written from the seeds, not read from the server
TOOLS_FOR = {
    C.MEMORY_WRITE: {"memory_write_structured", "memory_write"},
    C.MEMORY_GET: {"memory_get"},
    C.MEMORY_LIST: {"memory_list_structured"},
    C.MEMORY_SEARCH: {"memory_search_structured", "memory_search"},
    C.MEMORY_FILTERS: {"memory_search_structured"},
    C.METADATA_FILTERS: {"memory_search_structured"},
    C.CODE_INDEX: {"jit_index_file", "jit_index_directory"},
    C.CODE_SEARCH: {"jit_search", "code_search", "symbol_search"},
    C.PATTERNS: {"pattern_load", "pattern_scan", "pattern_scan_memories", "pattern_list"},
    C.REDACTION: {"memory_write_structured"},
    C.GRAPH: {"graph_put_node", "graph_get_node", "graph_put_edge", "graph_get_out", "graph_get_in",
              "graph_delete_edge", "graph_supersede"},
    C.POLICY_KV: {"policy_put", "policy_get", "policy_list"},
    C.POINT_IN_TIME: {"graph_get_node", "policy_get", "graph_diff_since"},
    C.SNAPSHOT: {"graph_export_snapshot", "snapshot_get_node", "snapshot_get_out", "snapshot_get_in"},
    C.KNOWLEDGE: {"oracle_search", "oracle_entities", "oracle_relationships", "oracle_timeline", "oracle_learn"},
    C.MEMORY_LANE: {"memory-lane_store", "memory-lane_find", "memory-lane_feedback", "memory-lane_inject"},
    C.PROJECT_MEMORY: {"project_memory_search", "project_placeholder", "project_locate_files",
                       "project_index_snapshot", "project_gc", "project_memory_get", "project_stats",
                       "project_switch_branch", "project_record_commit"},
}


@pytest.fixture
def backend(tmp_path):
    clock = LogicalClock(1_736_935_800)
    b = create_backend("reference-mcp")
    sink = ListSink()
    b.open(tmp_path / "store", clock, sink)
    yield b, clock, sink
    b.close()


def test_declared_capabilities_are_served_by_listed_tools(backend):
    b, _, _ = backend
    names = {t.name for t in b.client.list_tools()}
    for cap in b.capabilities:
        assert cap in TOOLS_FOR, f"{cap} declared without a known tool"
        assert TOOLS_FOR[cap] <= names, cap


def test_clock_context_errors_and_telemetry_cross_the_protocol(backend):
    b, clock, sink = backend
    b.set_context("repo:shop", "run-1", "task-9", "sess-1")
    first = b.write_memory("token refresh races with logout", task="task:debug", context=["context:auth"])
    clock.advance(90)
    second = b.write_memory("invoices round half-even", metadata={"branch": "main"})
    assert b.get_memory(first)["created_at"] == 1_736_935_800.0
    assert b.get_memory(second)["created_at"] == 1_736_935_890.0
    assert [r["id"] for r in b.list_memories()] == [second, first]
    assert [h.id for h in b.search_memories("refresh logout", where_metadata={"branch": [None]})] == [first]
    with pytest.raises(ValueError, match="task:nope"):
        b.search_memories("x", task="task:nope")
    assert b.get_memory("mem:00000000") is None                      # still serving after the error
    store_events = [e for e in sink.events if e.source == "store"]
    writes = [(e.op, e.memory_id, e.timestamp, e.scope, e.run_id, e.task_id) for e in store_events if e.op == "write"]
    assert writes == [("write", first, 1_736_935_800.0, "repo:shop", "run-1", "task-9"),
                      ("write", second, 1_736_935_890.0, "repo:shop", "run-1", "task-9")]


@pytest.mark.slow
def test_smoke_gives_the_same_figures_in_process_and_over_mcp(tmp_path):
    scenarios = resolve(["smoke"])
    reports = {spec: run_suite(spec, scenarios, tmp_path / spec) for spec in ("reference", "reference-mcp")}
    ref, mcp = (reports[s].scenarios["smoke"] for s in ("reference", "reference-mcp"))
    assert mcp["quality"] == ref["quality"] and ref["quality"]["queries"] > 0
    assert mcp["checks"] == ref["checks"] and mcp["steps"] == ref["steps"]
    assert mcp["per_query"] == ref["per_query"]
    assert mcp["unsupported"] == ref["unsupported"]

    def store_events(spec):
        lines = (tmp_path / spec / "telemetry" / "smoke.jsonl").read_text().splitlines()
        events = [json.loads(line) for line in lines]
        return [{k: v for k, v in e.items() if k != "latency_ms"} for e in events if e["source"] == "store"]

    assert store_events("reference-mcp") == store_events("reference") != []
