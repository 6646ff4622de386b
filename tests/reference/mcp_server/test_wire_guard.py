"""Lines the SDK could not parse get an answer (issue 25): JSON nested 10,000 deep, lines over the size limit.

Before, a `tools/call` whose arguments nested 10,000 deep got no answer at all
(the SDK's parse failed with no id to answer); now each is a JSON-RPC error with
the request's id, and the server keeps serving. Timing rule: see `wire.py`
(answers awaited for a generous 60 s, never timed).
"""
from __future__ import annotations

import io
import os

import pytest

from reference.mcp_server import wire_guard
from reference.mcp_server.wire_guard import MAX_WIRE_DEPTH, Oversized, problem, read_line, scan
from tests.reference.mcp_server.wire import RawServer

DEEP = int(os.environ.get("CODEMEM_DEEP_LEVELS", "10000"))
DEEP_CALLS = {
    "memory_write_structured": '{"text":"x","metadata":{"a":%s}}',
    "graph_put_node": '{"id":"file:a.py","type":"file","payload":%s}',
    "memory_search_structured": '{"query":"x","where_metadata":{"a":%s}}',
    "policy_put": '{"scope":"s","namespace":"n","key":"k","payload":%s}',
}


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_scan_finds_the_top_level_id_wherever_it_is():
    line = b'{"params":{"arguments":{"id":"file:a.py","x":' + nested(100).encode() + b'}},"id":42,"method":"m"}'
    assert scan(line) == (MAX_WIRE_DEPTH + 1, 42)
    assert problem(line)[1] == 42 and "deeper than 64" in problem(line)[0]
    assert scan(b'{"id":"a\\"b","p":"[[[[{{{{"}') == (1, 'a"b')      # brackets inside strings do not count
    assert problem(b'{"id":1,"p":' + nested(60).encode() + b"}") is None


def test_read_line_keeps_a_bounded_head_of_an_oversized_line():
    stream = io.BytesIO(b'{"id":7,"x":"' + b"a" * 5000 + b'"}\n{"id":8}\n')
    first = read_line(stream, limit=100)
    assert isinstance(first, Oversized) and len(first) == 100
    assert problem(first)[1] == 7 and "longer than" in problem(first)[0]
    assert read_line(stream, limit=100) == b'{"id":8}\n'
    assert read_line(stream, limit=100) == b""


@pytest.fixture(params=["cached listing", "no cache"])
def server(request, tmp_path, monkeypatch):
    if request.param == "no cache":
        monkeypatch.setenv("CODEMEM_MCP_NO_CACHE", "1")
    srv = RawServer(tmp_path / "data", "--tools", "all")
    assert srv.initialize()["result"]["serverInfo"]
    yield srv
    srv.close()


def test_deep_arguments_get_an_error_answer_and_the_server_keeps_serving(server):
    for tool, template in DEEP_CALLS.items():
        line = server.call_line(tool, template % nested(DEEP))
        server.send(line)
        got = server.answer()
        assert got is not None, f"{tool}: no answer"
        assert got["id"] == server.next_id and "nested deeper than 64 levels" in got["error"]["message"], got
    got = server.request("tools/call", {"name": "memory_write_structured", "arguments": {"text": "still here"}})
    assert got["result"]["structuredContent"]["text"] == "still here"


def test_moderately_deep_arguments_reach_the_argument_limits(server):
    line = server.call_line("graph_put_node", DEEP_CALLS["graph_put_node"] % nested(40))
    server.send(line)
    got = server.answer()
    assert got["result"]["isError"] and "nested deeper than the limit of 16 levels" in got["result"]["content"][0]["text"]


@pytest.mark.skipif(os.environ.get("CODEMEM_FAULT_LARGE") != "1", reason="a 65 MB line: CODEMEM_FAULT_LARGE=1")
def test_a_line_over_the_size_limit_is_refused_while_read(server):
    big = b'{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"memory_write","arguments":{"text":"' + \
        b"a" * (wire_guard.MAX_LINE + 1024) + b'"}}}'
    server.send(big)
    got = server.answer()
    assert got["id"] == 99 and "longer than" in got["error"]["message"]
