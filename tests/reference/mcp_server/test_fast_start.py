"""Fast start: `initialize` and `tools/list` answered from tool_listing.json equal the real server's answers."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from reference.mcp_server.config import ServerConfig
from reference.mcp_server.profiles import server_modules
from reference.mcp_server.tool_cache import LISTING, LISTING_ENV, NO_CACHE_ENV, fingerprint, load


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
    assert "stale" not in err and "differs" not in err     # the front's own check agreed with the saved answers
    assert call["structuredContent"]["text"] == real_call["structuredContent"]["text"] == "over the front"
    assert call["structuredContent"]["key_hash_str"]


def test_an_unknown_protocol_version_goes_to_the_real_server(tmp_path):
    init, tools, call, err = session(tmp_path, cached=True, version="2099-01-01")
    assert "from tool_listing.json" not in err
    assert init["protocolVersion"] != "2099-01-01" and len(tools["tools"]) == 5 and not call.get("isError")


def test_the_fingerprint_holds_no_installed_version(monkeypatch):
    """A fresh install gets newer patch releases of mcp and pydantic than the file was made with; that alone
    must not make the saved answers stale (it failed 3 tests and switched fast start off: issue 30)."""
    before = fingerprint()
    monkeypatch.setattr("importlib.metadata.version", lambda name: "999.0.0")
    assert fingerprint() == before


def test_a_saved_listing_that_differs_from_the_real_server_is_dropped(tmp_path):
    """What another pydantic release could do: the saved tools/list differs from the real server's. The first
    tools/list is answered from the file (the real server is still loading); once the front's own check
    has the real answer, a warning names the fix and later tools/list calls get the real server's answer."""
    data = json.loads(LISTING.read_text(encoding="utf-8"))
    real = data["tools"]["tools"]
    data["tools"]["tools"] = [{**t, "description": "CHANGED " + t["description"]} if t["name"] == "memory_get" else t
                              for t in real]
    altered = tmp_path / "listing.json"
    altered.write_text(json.dumps(data), encoding="utf-8")
    env = {**{k: v for k, v in os.environ.items() if k != NO_CACHE_ENV}, LISTING_ENV: str(altered)}
    proc = subprocess.Popen([sys.executable, "-m", "bench.cli.serve_cmd", "--data", str(tmp_path / "data"),
                             "--log-level", "INFO"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    answers = {}
    try:
        for msg in ({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                     "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                "clientInfo": {"name": "t", "version": "1"}}},
                    {"jsonrpc": "2.0", "method": "notifications/initialized"},
                    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                    {"jsonrpc": "2.0", "id": 3, "method": "tools/call",      # answered once the server has loaded
                     "params": {"name": "memory_get", "arguments": {"memory_id": "mem:00000000"}}},
                    {"jsonrpc": "2.0", "id": 4, "method": "tools/list"}):
            proc.stdin.write(json.dumps(msg) + "\n")
            proc.stdin.flush()
            while "id" in msg and msg["id"] not in answers:
                line = proc.stdout.readline()
                assert line, proc.stderr.read()
                got = json.loads(line)
                answers[got.get("id")] = got
    finally:
        proc.stdin.close()
        err = proc.stderr.read()
        proc.wait(timeout=120)
    described = lambda n: {t["name"]: t["description"] for t in answers[n]["result"]["tools"]}["memory_get"]  # noqa: E731
    assert described(2).startswith("CHANGED ")           # from the file, before the check
    assert not described(4).startswith("CHANGED ")       # from the real server, after it
    assert "differs from this server's tools/list" in err and "python -m reference.mcp_server.tool_cache" in err
    assert "codemem-front-tools-check" not in json.dumps(answers)   # the front's question never reaches the client


def test_initialize_after_an_early_request_is_left_to_the_real_server(tmp_path):
    """A 2026-era client probes `server/discover` first and, when the server is slow to start (10 s), abandons
    the probe and sends `initialize`. The probe has already opened the new protocol era in the real server,
    which refuses the handshake; the front must not answer it from the file, or the client's later calls
    (without the new era's envelope) are refused one by one."""
    try:   # the 2026 era's envelope keys; an mcp release without that era cannot be probed this way
        from mcp.shared.inbound import CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY
        from mcp_types.version import LATEST_MODERN_VERSION
    except ImportError as exc:
        pytest.skip(f"this mcp release has no 2026 protocol era to probe: {exc}")
    env = {k: v for k, v in os.environ.items() if k != NO_CACHE_ENV}
    proc = subprocess.Popen([sys.executable, "-m", "bench.cli.serve_cmd", "--data", str(tmp_path / "data"),
                             "--log-level", "INFO"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    answers = {}
    try:
        for msg in ({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
                     "params": {"_meta": {PROTOCOL_VERSION_META_KEY: LATEST_MODERN_VERSION,
                                          CLIENT_CAPABILITIES_META_KEY: {}}}},
                    {"jsonrpc": "2.0", "id": 2, "method": "initialize",
                     "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                "clientInfo": {"name": "t", "version": "1"}}}):
            proc.stdin.write(json.dumps(msg) + "\n")     # the probe's answer is not awaited (abandoned)
            proc.stdin.flush()
        while len(answers) < 2:
            line = proc.stdout.readline()
            assert line, proc.stderr.read()
            got = json.loads(line)
            answers[got.get("id")] = got
    finally:
        proc.stdin.close()
        err = proc.stderr.read()
        proc.wait(timeout=120)
    assert "from tool_listing.json" not in err
    assert "result" in answers[1] and "error" in answers[2], answers   # the real server's era, told truthfully
