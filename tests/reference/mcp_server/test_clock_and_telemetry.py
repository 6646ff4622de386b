"""The server's clock (`--clock`), the private harness tools and the telemetry file."""
from __future__ import annotations

import json

import pytest

from reference.mcp_server.server_clock import ClockSpecError, parse_clock
from tests.reference.mcp_server.conftest import open_server


def test_records_carry_the_logical_clock_set_through_the_harness_tools(mcp):
    assert mcp.call("memory_write_structured", text="first")["created_at"] == 1_736_935_800.0
    assert mcp.call("_harness_set_clock", time=1_800_000_000.5) == 1_800_000_000.5
    assert mcp.call("memory_write_structured", text="second")["created_at"] == 1_800_000_000.5
    assert mcp.call("_harness_advance_clock", seconds=0.25) == 1_800_000_000.75
    assert mcp.call("graph_put_node", id="file:x.py", type="file")["rev"] == 1
    assert mcp.call("graph_get_node", id="file:x.py")["created_ts"] == 1_800_000_000.75


def test_a_system_clock_server_stamps_wall_time(tmp_path):
    import time

    ctx, mcp = open_server(tmp_path / "d", clock="system")
    try:
        before = time.time()
        created = mcp.call("memory_write_structured", text="now")["created_at"]
        assert before <= created <= time.time()
    finally:
        mcp.close()
        ctx.close()


@pytest.mark.parametrize("spec", ["", "logical", "logical:", "logical:soon", "logical:nan", "wall", "system:1"])
def test_bad_clock_specs_are_refused(spec):
    with pytest.raises(ClockSpecError, match="--clock"):
        parse_clock(spec)


def test_clock_specs():
    assert parse_clock("system").logical is False
    clock = parse_clock("logical:1736935800.5")
    assert clock.logical and clock.now() == 1736935800.5


def test_session_context_and_times_reach_the_telemetry_file(tmp_path):
    tel = tmp_path / "tel" / "events.jsonl"
    ctx, mcp = open_server(tmp_path / "d", telemetry=tel)
    try:
        mcp.call("_harness_set_context", scope="repo:shop", run_id="run-7", task_id="t-1", session_id="s-1")
        mid = mcp.call("memory_write_structured", text="note")["id"]
        mcp.call("_harness_advance_clock", seconds=2.0)
        mcp.call("memory_get", memory_id=mid)
        events = [json.loads(line) for line in tel.read_text().splitlines()]   # readable before close
    finally:
        mcp.close()
        ctx.close()
    assert [(e["op"], e["memory_id"], e["timestamp"]) for e in events] == [
        ("write", mid, 1_736_935_800.0), ("read", mid, 1_736_935_802.0)]
    assert {(e["scope"], e["run_id"], e["task_id"], e["source"]) for e in events} == {
        ("repo:shop", "run-7", "t-1", "store")}
