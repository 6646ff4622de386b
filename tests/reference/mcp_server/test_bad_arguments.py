"""Bad arguments come back as tool errors (isError) naming the argument; the server keeps serving."""
from __future__ import annotations

import pytest

BAD_CALLS = [
    # (tool, arguments, text the error must contain)
    ("memory_write_structured", {}, "text"),                                   # missing required
    ("memory_write_structured", {"text": "x", "colour": "red"}, "colour"),     # unknown argument
    ("memory_write_structured", {"text": 42}, "text"),                         # wrong JSON type
    ("memory_write_structured", {"text": "  "}, "text"),
    ("memory_write_structured", {"text": "x", "task": "task:nope"}, "task:nope"),
    ("memory_write_structured", {"text": "x", "context": "context:auth"}, "context"),
    ("memory_write_structured", {"text": "x", "insights": ["insight:nope"]}, "insight"),
    ("memory_write_structured", {"text": "x", "symbol_keys": [-1]}, "symbol_keys"),
    ("memory_write_structured", {"text": "x", "symbol_keys": ["twelve"]}, "symbol_keys"),
    ("memory_write_structured", {"text": "x", "metadata": "branch=main"}, "metadata"),
    ("memory_search_structured", {"top_k": 0}, "top_k"),
    ("memory_search_structured", {"top_k": "5"}, "top_k"),
    ("memory_search_structured", {"top_k": True}, "top_k"),
    ("memory_search_structured", {"query": "x", "task": "task:nope"}, "task:nope"),
    ("memory_search_structured", {"where_metadata": {"branch": "main"}}, "where_metadata"),
    ("memory_get", {"memory_id": "nope"}, "memory_id"),
    ("memory_get", {"memory_id": "file:a.py"}, "memory_id"),
    ("memory_list_structured", {"limit": -1}, "limit"),
    ("memory_list_structured", {"offset": -3}, "offset"),
    ("memory_search", {}, "query"),
    ("memory_write", {"text": "x", "thread": ""}, "thread"),
    ("pattern_load", {"pattern_set_id": "pat:x", "patterns": ["(?=look)ahead"]}, "look"),
    ("pattern_load", {"pattern_set_id": "pat:x", "patterns": ["("]}, "pat:x"),
    ("pattern_load", {"pattern_set_id": "pat:x", "patterns": []}, "patterns"),
    ("pattern_load", {"pattern_set_id": "security", "patterns": ["a"]}, "security"),
    ("pattern_load", {"pattern_set_id": "pat:secrets", "patterns": ["zzz"]}, "pattern_set_id"),
    ("pattern_scan", {"pattern_set_id": "pat:nope", "target": "file:a.py"}, "pat:nope"),
    ("pattern_scan", {"pattern_set_id": "pat:security-smells"}, "target_key"),
    ("pattern_scan", {"pattern_set_id": "pat:security-smells", "target_key": 1, "target": "file:a"}, "target_key"),
    ("pattern_scan", {"pattern_set_id": "pat:security-smells", "target_key": 2**64}, "target_key"),
    ("pattern_scan", {"pattern_set_id": "pat:security-smells", "target_key": 12345}, "target_key"),
    ("pattern_scan", {"pattern_set_id": "pat:security-smells", "target": "not a key"}, "target"),
    ("pattern_scan_memories", {"pattern_set_id": "pat:nope"}, "pat:nope"),
    ("jit_index_file", {"path": "does/not/exist.py"}, "exist.py"),
    ("jit_index_directory", {"path": "no-such-dir"}, "no-such-dir"),
    ("jit_search", {"query": "x", "types": ["planet"]}, "planet"),
    ("symbol_search", {"query": "x", "top_k": 100000}, "top_k"),
    ("graph_put_edge", {"src": "file:a.py", "rel": "likes", "dst": "file:b.py"}, "likes"),
    ("graph_get_node", {"id": "file:a.py", "at": "yesterday"}, "at"),
    ("graph_get_node", {"id": "file:a.py", "at": {"rev": 10**6}}, "10"),
    ("graph_get_out", {"src": "file:a.py", "at": {"week": 3}}, "at"),
    ("graph_diff_since", {"since": "soon"}, "since"),
    ("graph_supersede", {"new_id": "file:n.py", "old_id": "file:o.py"}, "does not exist"),
    ("graph_delete_edge", {"src": "file:a.py", "rel": "imports", "dst": "file:z.py"}, "file:z.py"),
    ("graph_put_node", {"id": "file:a.py", "type": "file", "ts": 1.0}, "before"),
    ("graph_export_snapshot", {}, "name"),
    ("graph_export_snapshot", {"name": "../escape"}, "name"),
    ("snapshot_get_out", {"name": "missing", "src": "file:a.py"}, "missing"),
    ("policy_put", {"scope": "repo", "namespace": "decision", "key": "k"}, "payload"),
    ("policy_delete", {"scope": "repo", "namespace": "decision", "key": "never-set"}, "never-set"),
    ("policy_get", {"scope": "repo", "namespace": "decision", "key": "k", "at": "rev:-1"}, "at"),
    ("oracle_search", {"query": "x", "temporalFilter": {"since": "2020"}}, "temporalFilter"),
    ("oracle_search", {"query": "x", "temporalFilter": {"after": "next tuesday-ish"}}, "after"),
    ("oracle_entities", {"documentId": "m1"}, "documentId"),
    ("oracle_relationships", {"documentId": "mem:00000000", "type": "causes"}, "type"),
    ("oracle_learn", {"pattern": " "}, "pattern"),
    ("memory-lane_store", {"information": "x", "type": "rumour"}, "type"),
    ("memory-lane_store", {"information": "x", "entities": ["auth"]}, "auth"),
    ("memory-lane_find", {"query": "x", "entities": ["Not A Slug"]}, "Not A Slug"),
    ("memory-lane_feedback", {"memory_id": "mem:00000000", "signal": "helpful"}, "mem:00000000"),
    ("memory-lane_inject", {"query": "x", "session_id": ""}, "session_id"),
    ("project_record_commit", {"sha": "xyz", "message": "m"}, "xyz"),
    ("project_switch_branch", {"name": ""}, "branch"),
    ("project_memory_get", {"memory_id": "x"}, "memory_id"),
    ("project_index_snapshot", {}, "path"),
    ("project_gc", {"live_branches": "main"}, "live_branches"),
    ("_harness_set_clock", {"time": 0.0}, "back"),
    ("_harness_advance_clock", {"seconds": -5.0}, "negative"),
    ("no_such_tool", {}, "no_such_tool"),
]


@pytest.fixture(scope="module")
def prepared(shared):
    ctx, mcp = shared
    mcp.call("graph_put_node", id="file:a.py", type="file")   # so the graph has revision 1 at the server clock
    return ctx, mcp


@pytest.mark.parametrize("tool, args, expected", BAD_CALLS, ids=[f"{t}-{i}" for i, (t, _, _) in enumerate(BAD_CALLS)])
def test_bad_call_is_a_tool_error_naming_the_problem(prepared, tool, args, expected):
    _, mcp = prepared
    text = mcp.error(tool, **args)
    assert expected in text, text
    assert "internal error" not in text
    assert isinstance(mcp.call("memory_list_structured", limit=1), list)     # still serving


def test_bad_writes_stored_nothing(prepared):
    ctx, mcp = prepared
    for tool, args, _ in BAD_CALLS:
        if tool == "memory_write_structured":
            mcp.error(tool, **args)
    assert mcp.call("memory_list_structured") == []
    assert ctx.store.stats()["counts"]["memories"] == 0
