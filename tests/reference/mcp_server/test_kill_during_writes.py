"""SIGKILL during writes, through the store API and through an MCP server process: no acknowledged write is lost.

A child writes memories and graph nodes and acknowledges each one (a line on
stdout once the call has returned, or the server's JSON-RPC answer); the
parent kills it with SIGKILL at a random moment, often with a write in
flight, then reopens the folder and finds every acknowledged write. The same
folder takes every round, so each reopen also recovers the previous kill.

CI does `CODEMEM_KILLS` (default 2) kills per path; a larger run:

    CODEMEM_KILLS=80 python3 -m pytest -q -p no:cacheprovider tests/reference/mcp_server/test_kill_during_writes.py
"""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from reference.clock import LogicalClock
from reference.graph.store import GraphStore
from reference.store import MemoryStore

KILLS = int(os.environ.get("CODEMEM_KILLS", "2"))
ROOT = Path(__file__).resolve().parents[3]

WRITER = """
import sys
from reference.clock import SystemClock
from reference.graph.store import GraphStore
from reference.store import MemoryStore
data, round_ = sys.argv[1], sys.argv[2]
store = MemoryStore.open(data, clock=SystemClock())
graph = GraphStore.open(data + "/graph", clock=SystemClock())
for i in range(100000):
    if i % 3 == 2:
        key = f"file:r{round_}/n{i}.py"
        graph.put_node(key, "file", {"i": i})
        print("node", key, flush=True)
    else:
        entry = store.write_memory(f"round {round_} note {i}: a decision about caching", tags=[f"r{round_}"])
        print("memory", entry.id, flush=True)
"""


def check_acknowledged(data: Path, memories: list[str], nodes: list[str]) -> None:
    store = MemoryStore.open(data, clock=LogicalClock(0.0))
    graph = GraphStore.open(data / "graph", clock=LogicalClock(0.0))
    try:
        missing = [m for m in memories if store.get_memory(m) is None]
        missing += [n for n in nodes if graph.get_node(n) is None]
        assert not missing, f"{len(missing)} acknowledged writes lost, e.g. {missing[:3]}"
    finally:
        graph.close()
        store.close()


def kill_at_random(proc: subprocess.Popen, acks: list[str], want: int, rng: random.Random) -> None:
    """Read acknowledgements until `want`, wait a random moment (a write is often in flight), SIGKILL."""
    while len(acks) < want:
        line = proc.stdout.readline()
        assert line, "the writer exited before it was killed"
        acks.append(line.decode().strip())
    time.sleep(rng.uniform(0, 0.05))
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    acks.extend(x.decode().strip() for x in proc.stdout.read().splitlines())   # written before the kill


def test_sigkill_through_the_store_api_loses_no_acknowledged_write(tmp_path):
    rng = random.Random(11)
    data = tmp_path / "data"
    memories: list[str] = []
    nodes: list[str] = []
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for round_ in range(KILLS):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(data), str(round_)], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, env=env)
        acks: list[str] = []
        kill_at_random(proc, acks, rng.randint(3, 25), rng)
        memories += [a.split()[1] for a in acks if a.startswith("memory ")]
        nodes += [a.split()[1] for a in acks if a.startswith("node ")]
        check_acknowledged(data, memories, nodes)
    assert len(memories) >= 2 * KILLS and len(nodes) >= KILLS


class RawServer:
    """A server process spoken to in newline-delimited JSON-RPC, so the test holds its pid."""

    def __init__(self, data: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "reference.mcp_server", "--data", str(data), "--tools", "all"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     env={**os.environ, "PYTHONPATH": str(ROOT)})
        self.next_id = 0
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "kill-test", "version": "0"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict) -> None:
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        self.proc.stdin.flush()

    def start(self, method: str, params: dict) -> int:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def answer(self, rid: int) -> dict:
        while True:
            line = self.proc.stdout.readline()
            assert line, "the server exited"
            msg = json.loads(line)
            if msg.get("id") == rid:
                return msg

    def request(self, method: str, params: dict) -> dict:
        return self.answer(self.start(method, params))

    def call(self, tool: str, args: dict) -> dict:
        msg = self.request("tools/call", {"name": tool, "arguments": args})
        assert not msg["result"].get("isError"), msg
        return msg["result"]["structuredContent"]


def test_sigkill_of_an_mcp_server_loses_no_acknowledged_write(tmp_path):
    rng = random.Random(12)
    data = tmp_path / "data"
    memories: list[str] = []
    nodes: list[str] = []
    for round_ in range(KILLS):
        server = RawServer(data)
        for i in range(rng.randint(3, 12)):
            if i % 3 == 2:
                key = f"file:r{round_}/n{i}.py"
                server.call("graph_put_node", {"id": key, "type": "file"})
                nodes.append(key)
            else:
                memories.append(server.call("memory_write_structured", {"text": f"round {round_} note {i}"})["id"])
        server.start("tools/call", {"name": "memory_write_structured", "arguments": {"text": "in flight"}})
        time.sleep(rng.uniform(0, 0.05))
        os.kill(server.proc.pid, signal.SIGKILL)
        server.proc.wait(timeout=30)
        check_acknowledged(data, memories, nodes)
    assert len(memories) >= 2 * KILLS
