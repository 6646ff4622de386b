"""Argument limits are enforced before work starts; errors stay short; times stay in range."""
from __future__ import annotations

import pytest

from reference.mcp_server import limits
from reference.mcp_server.error_text import MAX_ERROR_CHARS

BIG = "x" * 10_000_000           # 10 MB
MAX_SHORT_ERROR = MAX_ERROR_CHARS + 100   # the clip plus its note

OVERSIZED = [
    # (tool, arguments, the argument the error must name)
    ("memory_write_structured", {"text": BIG}, "text"),
    ("memory_write", {"text": BIG}, "text"),
    ("memory-lane_store", {"information": BIG}, "information"),
    ("oracle_learn", {"pattern": BIG}, "pattern"),
    ("oracle_learn", {"pattern": "a lesson", "concepts": [f"c{i}" for i in range(100_000)]}, "concepts"),
    ("memory-lane_find", {"query": BIG}, "query"),
    ("memory_search_structured", {"query": BIG}, "query"),
    ("oracle_search", {"query": BIG}, "query"),
    ("jit_search", {"query": BIG}, "query"),
    ("project_placeholder", {"summary": BIG}, "summary"),
    ("memory_get", {"memory_id": BIG}, "memory_id"),
    ("graph_put_node", {"id": BIG, "type": "file"}, "id"),
    ("graph_put_node", {"id": "file:a.py", "type": "file", "payload": {"k": BIG}}, "payload"),
    ("graph_put_node", {"id": "file:a.py", "type": "file", "payload": list(range(200_000))}, "payload"),
    ("memory_write_structured", {"text": "x", "metadata": {"deep": [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]}}, "metadata"),
    ("memory_write_structured", {"text": "x", "tags": ["t"] * 100_000}, "tags"),
    ("pattern_load", {"pattern_set_id": "pat:big", "patterns": ["a"] * 100_000}, "patterns"),
    ("project_gc", {"live_branches": ["b"] * 100_000}, "live_branches"),
    ("jit_index_file", {"path": BIG}, "path"),
    ("project_index_snapshot", {"files": [{"path": "a.py", "text": ""}] * 20_000}, "files"),
    ("project_index_snapshot", {"files": [{"path": "a.py", "text": "x" * 3_000_000}]}, "files"),
    ("policy_put", {"scope": "repo", "namespace": "decision", "key": "k", "payload": BIG}, "payload"),
]


@pytest.mark.parametrize("tool, args, name", OVERSIZED, ids=[f"{t}-{n}-{i}" for i, (t, _, n) in enumerate(OVERSIZED)])
def test_an_oversized_argument_is_refused_with_a_short_error_naming_it(shared, tool, args, name):
    ctx, mcp = shared
    before = ctx.store.stats()["counts"]
    text = mcp.error(tool, **args)
    assert f"argument '{name}'" in text and "limit" in text, text[:300]
    assert len(text) < MAX_SHORT_ERROR, len(text)
    assert ctx.store.stats()["counts"] == before


BAD_ITEMS = [
    # pydantic sees these (each item is small), and would list every failing item with its input
    ("memory_write_structured", {"text": "x", "symbol_keys": [1.5] * 900}, "symbol_keys"),
    ("memory_write_structured", {"text": "x", "tags": [1] * 100}, "tags"),
    ("project_record_commit", {"sha": "a" * 40, "message": "m", "files": [7] * 10_000}, "files"),
    ("memory_write_structured", {"text": 12345, "task": ["x" * 500] * 3}, "text"),
]


@pytest.mark.parametrize("tool, args, name", BAD_ITEMS, ids=[f"{t}-{n}" for t, _, n in BAD_ITEMS])
def test_many_bad_items_give_a_short_error_with_a_count(shared, tool, args, name):
    _, mcp = shared
    text = mcp.error(tool, **args)
    assert f"argument '{name}" in text and "invalid argument" in text, text[:300]
    assert len(text) < MAX_SHORT_ERROR, len(text)


def test_the_pydantic_text_is_summarised(shared):
    _, mcp = shared
    text = mcp.error("memory_write_structured", text="x", symbol_keys=[1.5] * 900)   # int or decimal string
    assert text.startswith("Error executing tool memory_write_structured: 1,800 invalid arguments: ")
    assert "and 1,797 more" in text and "(got float '1.5')" in text


def test_a_huge_tool_name_gives_a_short_error(shared):
    text = shared[1].error("x" * 1_000_000)
    assert "Unknown tool" in text and len(text) < 200


@pytest.mark.parametrize("ts", [1e308, 2.0 ** 64, -1.0, limits.MAX_TS + 1])
def test_a_graph_write_at_an_impossible_time_is_refused(served, ts):
    ctx, mcp = served
    text = mcp.error("graph_put_node", id="file:a.py", type="file", ts=ts)
    assert "argument 'ts'" in text and "internal error" not in text, text
    assert mcp.call("graph_put_node", id="file:a.py", type="file")["rev"] == 1   # later writes still work


def test_a_graph_write_far_ahead_of_the_server_clock_is_refused(served):
    ctx, mcp = served
    now = ctx.clock.now()
    for tool, args in [("graph_put_node", {"id": "file:a.py", "type": "file"}),
                       ("policy_put", {"scope": "repo", "namespace": "decision", "key": "k", "payload": 1})]:
        text = mcp.error(tool, **args, ts=now + limits.FUTURE_WINDOW_S + 1)
        assert "ahead of the server clock" in text, text
    assert mcp.call("graph_put_node", id="file:a.py", type="file", ts=now + 60)["rev"] == 1
    assert mcp.call("graph_put_node", id="file:b.py", type="file")["rev"] == 2   # the clock catches up: no error


@pytest.mark.parametrize("tool, args, name", [
    ("_harness_set_clock", {"time": 1e308}, "time"),
    ("_harness_set_clock", {"time": 2 ** 64}, "time"),
    ("_harness_advance_clock", {"seconds": 1e308}, "seconds"),
    ("memory_list_structured", {"offset": 2 ** 64}, "offset"),
    ("memory_list_structured", {"offset": 2 ** 63}, "offset"),
    ("project_record_commit", {"sha": "b" * 40, "message": "m", "time": 2 ** 64}, "time"),
    ("project_record_commit", {"sha": "b" * 40, "message": "m", "time": 2 ** 62}, "time"),
    ("graph_get_node", {"id": "file:a.py", "at": 2 ** 64}, "at"),
    ("graph_get_node", {"id": "file:a.py", "at": {"rev": 2 ** 64}}, "at"),
    ("graph_get_node", {"id": "file:a.py", "at": {"ts": 1e308}}, "at"),
    ("graph_diff_since", {"since": 1e308}, "since"),
    ("oracle_timeline", {"after": 1e308}, "after"),
    ("oracle_search", {"query": "x", "temporalFilter": {"before": 2.0 ** 64}}, "before"),
    ("pattern_scan", {"pattern_set_id": "pat:secrets", "target_key": 2 ** 70}, "target_key"),
])
def test_huge_times_and_offsets_are_validation_errors_not_overflows(shared, tool, args, name):
    ctx, mcp = shared
    text = mcp.error(tool, **args)
    assert name in text and "internal error" not in text and "Overflow" not in text, text
    assert ctx.clock.now() < limits.MAX_TS


def test_limits_table_names_real_tools():
    """Every `tool.argument` row of the table names a tool that has that argument (no dead rows)."""
    from tests.reference.mcp_server.test_tool_listing import EXPECTED
    for key in limits.ARGUMENTS:
        if "." in key:
            tool, arg = key.split(".")
            required, optional = EXPECTED[tool]
            assert arg in required | optional, key
