"""Every tool the seeds name is listed with the seeds' names, arguments and routing descriptions."""
from __future__ import annotations

import pytest

from tests.reference.mcp_server.conftest import open_server

# name -> (required arguments, optional arguments); written from seed 000 §5, §0 and seed 003 §5.1
# (plus the documented extensions), not read from the server.
EXPECTED = {
    "memory_write_structured": ({"text"}, {"task", "insights", "context", "symbol_keys", "tags", "metadata"}),
    "memory_search_structured": (set(), {"query", "task", "context", "insights", "tags", "top_k", "where_metadata"}),
    "memory_get": ({"memory_id"}, set()),
    "memory_list_structured": (set(), {"task", "context", "limit", "offset"}),
    "memory_status": (set(), set()),               # issue 25: damaged records found on open
    "memory_write_batch": ({"memories"}, set()),   # issue 15: several memory_write_structured in one call
    "pattern_load": ({"pattern_set_id", "patterns"}, {"description", "tags", "names", "flags"}),
    "pattern_scan": ({"pattern_set_id"}, {"target_key", "target"}),
    "pattern_scan_memories": ({"pattern_set_id"}, {"task", "context"}),
    "pattern_list": (set(), set()),
    "jit_index_file": ({"path"}, {"root"}),
    "jit_index_directory": (set(), {"path", "glob"}),
    "jit_search": ({"query"}, {"top_k", "types"}),
    "code_search": ({"query"}, {"top_k"}),
    "symbol_search": ({"query"}, {"top_k"}),
    "register_file": ({"path"}, {"root"}),
    "memory_write": ({"text"}, {"thread", "tags"}),
    "memory_search": ({"query"}, {"top_k", "thread"}),
    "memory_list_threads": (set(), set()),
    "graph_put_node": ({"id", "type"}, {"payload", "scope", "ts", "run_id", "task_id"}),
    "graph_get_node": ({"id"}, {"at"}),
    "graph_put_edge": ({"src", "rel", "dst"}, {"payload", "ts", "run_id", "task_id"}),
    "graph_get_edge": ({"src", "rel", "dst"}, {"at"}),
    "graph_get_out": ({"src"}, {"rel", "at"}),
    "graph_get_in": ({"dst"}, {"rel", "at"}),
    "graph_delete_edge": ({"src", "rel", "dst"}, {"ts", "run_id", "task_id"}),
    "graph_supersede": ({"new_id", "old_id"}, {"payload", "ts", "run_id", "task_id"}),
    "policy_put": ({"scope", "namespace", "key", "payload"}, {"ts", "run_id", "task_id"}),
    "policy_get": ({"scope", "namespace", "key"}, {"at"}),
    "policy_list": ({"scope", "namespace"}, {"at"}),
    "policy_delete": ({"scope", "namespace", "key"}, {"ts", "run_id", "task_id"}),
    "graph_diff_since": ({"since"}, {"until"}),
    # seed 001 oracle_* (options flattened, as the harness's steps), seed 004 memory-lane_*
    "oracle_search": ({"query"}, {"limit", "includeRelated", "temporalFilter", "entityFilter", "minRelevance"}),
    "oracle_entities": (set(), {"type", "limit", "documentId"}),
    "oracle_relationships": ({"documentId"}, {"type"}),
    "oracle_timeline": (set(), {"after", "before", "limit"}),
    "oracle_learn": ({"pattern"}, {"concepts", "source"}),
    "memory-lane_store": ({"information"}, {"type", "entities", "paths", "tags", "confidence_score"}),
    "memory-lane_find": ({"query"}, {"entities", "limit"}),
    "memory-lane_feedback": ({"memory_id", "signal"}, set()),
    "memory-lane_inject": ({"query", "session_id"}, {"limit"}),
    # seed 002 project memory, under the harness's step names
    "project_memory_search": ({"query"}, {"top_k", "branch", "filtered"}),
    "project_placeholder": ({"summary"}, {"session_id", "tool_name", "prev_commit_sha"}),
    "project_locate_files": ({"query"}, {"top_k"}),
    "project_index_snapshot": (set(), {"path", "files"}),
    "project_gc": ({"live_branches"}, set()),
    "project_memory_get": ({"memory_id"}, set()),
    "project_memory_list": (set(), set()),
    "project_stats": (set(), set()),
    "project_switch_branch": ({"name"}, {"base", "default"}),
    "project_record_commit": ({"sha", "message"}, {"parent", "files", "branch", "time"}),
    "graph_export_snapshot": ({"name"}, {"at"}),
    "snapshot_get_node": ({"name", "id"}, set()),
    "snapshot_get_out": ({"name", "src"}, {"rel"}),
    "snapshot_get_in": ({"name", "dst"}, {"rel"}),
}
HARNESS = {
    "_harness_set_clock": ({"time"}, set()),
    "_harness_advance_clock": ({"seconds"}, set()),
    "_harness_set_context": (set(), {"scope", "run_id", "task_id", "session_id"}),
    "_harness_checkpoint": (set(), set()),
    "_harness_stats": (set(), set()),
}


def _schemas(tools):
    return {t.name: t.input_schema for t in tools}


def test_names_and_input_schemas_on_a_logical_clock(shared):
    schemas = _schemas(shared[1].tools())
    expected = {**EXPECTED, **HARNESS}
    assert set(schemas) == set(expected)
    for name, (required, optional) in expected.items():
        schema = schemas[name]
        assert schema["type"] == "object", name
        assert set(schema.get("required", [])) == required, name
        assert set(schema["properties"]) == required | optional, name
        assert schema.get("additionalProperties") is False, name


def test_wall_clock_server_hides_the_harness_tools(tmp_path):
    ctx, client = open_server(tmp_path / "d", clock="system")
    try:
        assert set(_schemas(client.tools())) == set(EXPECTED)
        assert "Unknown tool" in client.error("_harness_set_clock", time=1.0)
    finally:
        client.close()
        ctx.close()


def test_argument_types_follow_the_seed_signatures(shared):
    s = _schemas(shared[1].tools())
    assert s["memory_write_structured"]["properties"]["text"]["type"] == "string"
    symbol_keys = s["memory_write_structured"]["properties"]["symbol_keys"]["anyOf"]
    # u64 key hashes: a number or its decimal string (JavaScript clients lose precision above 2^53)
    assert {"type": "array", "items": {"anyOf": [{"type": "integer"}, {"type": "string"}]}} in symbol_keys
    assert s["pattern_scan"]["properties"]["target_key"]["anyOf"][0]["type"] == "integer"
    top_k = s["memory_search_structured"]["properties"]["top_k"]
    assert (top_k["type"], top_k["default"], top_k["minimum"]) == ("integer", 10, 1)
    limit = s["memory_list_structured"]["properties"]
    assert (limit["limit"]["default"], limit["offset"]["default"]) == (50, 0)
    assert s["pattern_load"]["properties"]["patterns"] == {
        "type": "array", "items": {"type": "string"},   # no generated "title" (it repeats the name)
        "description": s["pattern_load"]["properties"]["patterns"]["description"]}


@pytest.mark.parametrize("tool, phrase", [
    ("memory_search_structured", "User begins a new debugging session"),
    ("memory_search_structured", 'User references "what we discussed" or "remember when"'),
    ("memory_search_structured", "Starting work on a file that has associated memories"),
    ("memory_write_structured", "User provides reasoning about a design decision"),
    ("memory_write_structured", "A tradeoff is being accepted"),
    ("memory_write_structured", "Completing a debugging session with findings"),
    ("pattern_scan", "Reviewing code for security issues"),
    ("pattern_scan", "Searching for specific patterns across memories"),
])
def test_descriptions_carry_the_seed_routing_guidance(shared, tool, phrase):
    descriptions = {t.name: t.description for t in shared[1].tools()}
    assert phrase in descriptions[tool]


def test_every_public_tool_says_when_to_use_it(shared):
    for t in shared[1].tools():
        if t.name.startswith("_harness") or t.name == "graph_get_edge":
            continue
        assert "Use automatically when:" in t.description or "Use when:" in t.description, t.name
