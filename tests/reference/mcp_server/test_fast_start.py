"""Fast start: `initialize` and `tools/list` answered from tool_listing.json equal the real server's answers."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from reference.mcp_server.config import ServerConfig
from reference.mcp_server.profiles import server_modules
from reference.mcp_server.tool_cache import NO_CACHE_ENV, load


def session(tmp_path, *args: str, cached: bool, version: str = "2025-06-18") -> tuple[dict, dict, dict, str]:
    """(initialize, tools/list, a tools/call answer, stderr) of one `serve` process over raw stdio."""
    env = {k: v for k, v in os.environ.items() if k != NO_CACHE_ENV}
    if not cached:
        env[NO_CACHE_ENV] = "1"
    data = tmp_path / ("cached" if cached else "plain") / "data"
    proc = subprocess.Popen([sys.executable, "-m", "bench.cli.serve_cmd", "--data", str(data), "--log-level", "INFO",
                             *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    answers = {}
    try:
        for msg in ({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                     "params": {"protocolVersion": version, "capabilities": {},
                                "clientInfo": {"name": "t", "version": "1"}}},
                    {"jsonrpc": "2.0", "method": "notifications/initialized"},
                    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                    {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                     "params": {"name": "memory_write_structured", "arguments": {"text": "over the front"}}}):
            proc.stdin.write(json.dumps(msg) + "\n")
            proc.stdin.flush()
            while "id" in msg and msg["id"] not in answers:
                line = proc.stdout.readline()
                assert line, proc.stderr.read()
                got = json.loads(line)
                assert got.get("id") not in answers, f"answered twice: {got}"
                answers[got.get("id")] = got
    finally:
        proc.stdin.close()
        err = proc.stderr.read()
        proc.wait(timeout=120)
    assert proc.stdout.read() == ""                  # nothing after the last answer (the handshake's is dropped)
    return answers[1]["result"], answers[2]["result"], answers[3]["result"], err


def test_the_saved_listing_is_current():
    """Fails after a tool change until `python -m reference.mcp_server.tool_cache` is run (then commit the file)."""
    for clock in ("system", "logical:0"):
        assert load(server_modules(ServerConfig("d", clock=clock, tools="all"))) is not None, \
            "reference/mcp_server/tool_listing.json is stale: run python -m reference.mcp_server.tool_cache"


@pytest.mark.parametrize("args", [("--tools", "core", "--clock", "logical:1736935800"), ("--tools", "core,lane")])
def test_saved_answers_equal_the_real_servers_and_calls_still_work(tmp_path, args):
    init, tools, call, err = session(tmp_path, *args, cached=True)
    assert "answered initialize (2025-06-18) from tool_listing.json" in err
    real_init, real_tools, real_call, real_err = session(tmp_path, *args, cached=False)
    assert "serving without it" in real_err and "from tool_listing.json" not in real_err
    assert (init, tools) == (real_init, real_tools)
    assert "stale" not in err
    assert call["structuredContent"]["text"] == real_call["structuredContent"]["text"] == "over the front"
    assert call["structuredContent"]["key_hash_str"]


def test_an_unknown_protocol_version_goes_to_the_real_server(tmp_path):
    init, tools, call, err = session(tmp_path, cached=True, version="2099-01-01")
    assert "from tool_listing.json" not in err
    assert init["protocolVersion"] != "2099-01-01" and len(tools["tools"]) == 5 and not call.get("isError")
