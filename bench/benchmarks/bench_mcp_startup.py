"""MCP server start-up: process spawn to the first answered calls, per tool profile, and each profile's size.

Run:  python -m pytest bench/benchmarks/bench_mcp_startup.py --benchmark-only
Rounds: CODEMEM_BENCH_ROUNDS (default 5) server processes per case.

`first_answer[PROFILE]` times `codemem-bench serve --tools PROFILE` (as `python -m bench.cli.serve_cmd`)
from spawn until `initialize` and `tools/list` are answered (the front answers them from
tool_listing.json while the real server loads); extra_info holds the `tools/list` answer's size in
characters, an approximate token count (characters / 4) and the tool count. `first_call[core]` goes on to
the first `memory_write_structured` answer (the real server must be up). `no_listing[...]` is the same with
CODEMEM_MCP_NO_CACHE=1, i.e. the server before fast start: every answer waits for `mcp` and the store.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

import pytest

from reference.mcp_server.profiles import PROFILES
from reference.mcp_server.tool_cache import NO_CACHE_ENV

ROUNDS = int(os.environ.get("CODEMEM_BENCH_ROUNDS", "5"))
HANDSHAKE = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize",
     "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
]
CALL = {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "memory_write_structured", "arguments": {"text": "first call"}}}


class Sessions:
    """Starts one server per round and closes it before the next (closing is not timed)."""

    def __init__(self, profile: str, *, call: bool, cached: bool) -> None:
        self.profile, self.call = profile, call
        self.env = {k: v for k, v in os.environ.items() if k != NO_CACHE_ENV}
        if not cached:
            self.env[NO_CACHE_ENV] = "1"
        self.tmp = tempfile.TemporaryDirectory()
        self.proc: subprocess.Popen | None = None
        self.rounds = 0
        self.sizes: dict = {}

    def start(self) -> None:
        """Spawn the server and wait for the handshake's (and the call's) answers: the timed part."""
        self.rounds += 1
        self.proc = proc = subprocess.Popen(
            [sys.executable, "-m", "bench.cli.serve_cmd", "--data", f"{self.tmp.name}/data{self.rounds}",
             "--tools", self.profile], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=self.env)
        for msg in [*HANDSHAKE, *([CALL] if self.call else [])]:
            proc.stdin.write(json.dumps(msg) + "\n")
            proc.stdin.flush()
            if "id" in msg:
                got = json.loads(proc.stdout.readline())
                assert got["id"] == msg["id"] and "result" in got, got
                if msg["id"] == 2:
                    self.sizes.update(chars=len(json.dumps(got["result"], separators=(",", ":"))),
                                      tools=len(got["result"]["tools"]))

    def close(self) -> None:
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait(timeout=120)
            self.proc = None


def measure(benchmark, profile: str, *, call: bool = False, cached: bool = True) -> None:
    sessions = Sessions(profile, call=call, cached=cached)
    try:
        benchmark.pedantic(sessions.start, setup=sessions.close, rounds=ROUNDS, iterations=1)
    finally:
        sessions.close()
        sessions.tmp.cleanup()
    benchmark.extra_info.update(profile=profile, tools_list_chars=sessions.sizes["chars"],
                                approx_tokens=sessions.sizes["chars"] // 4, tools=sessions.sizes["tools"])


@pytest.mark.parametrize("profile", list(PROFILES))
def test_first_answer(benchmark, profile):
    measure(benchmark, profile)


def test_first_call_core(benchmark):
    measure(benchmark, "core", call=True)


@pytest.mark.parametrize("profile", ["core", "all"])
def test_no_listing(benchmark, profile):
    measure(benchmark, profile, call=True, cached=False)
