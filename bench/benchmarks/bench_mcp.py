"""The MCP protocol's overhead: the same store operations called directly, over in-process MCP, and over stdio.

Run:  python -m pytest bench/benchmarks/bench_mcp.py --benchmark-only
Scale: CODEMEM_BENCH_SCALE=small (500 memories, default) or full (10k memories).

Per operation (memory_get, memory_search_structured, memory_write_structured) three variants run in
the same session on the same data: `direct` (MemoryStore method), `inproc` (a real `mcp.Client`
connected in-process: JSON-RPC objects, argument validation, the worker-thread hop) and `stdio` (a
`codemem-bench serve` subprocess over pipes, as an agent runs it). The stdio variant's extra_info
holds its median as a multiple of the direct one (`x_direct`). `test_concurrent_writers` times
4 server processes writing to one folder at once (writes per second over all of them).
"""
from __future__ import annotations

import os
import random
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import anyio
import pytest
from anyio.from_thread import start_blocking_portal
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from bench.backends.mcp.client_thread import McpClientThread
from reference.clock import LogicalClock
from reference.mcp_server import ServerConfig, ServerContext, build_server
from reference.store import MemoryStore

SCALES = {"small": 500, "full": 10_000}
N = SCALES[os.environ.get("CODEMEM_BENCH_SCALE", "small")]
WORDS = ("auth token refresh race billing invoice decimal cache redis queue worker retry timeout deploy docker "
         "schema migration index query latency frontend button modal css api endpoint session cookie").split()
START = 1_700_000_000.0
QUERY = {"query": "token refresh race in the auth cache", "top_k": 10}
MEDIANS: dict[tuple[str, str], float] = {}


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    path = tmp_path_factory.mktemp("bench_mcp") / "data"
    rng = random.Random(0)
    with MemoryStore.open(path, clock=LogicalClock(START)) as store:
        ids = [store.write_memory(" ".join(rng.choices(WORDS, k=12)) + f" item{i}", task="task:debug").id
               for i in range(N)]
    return path, ids


class Direct:
    def __init__(self, path: Path) -> None:
        self.store = MemoryStore.open(path, clock=LogicalClock(START))

    def __call__(self, tool: str, args: dict) -> object:
        if tool == "memory_get":
            return self.store.get_memory(args["memory_id"])
        if tool == "memory_search_structured":
            return self.store.search_memories(args["query"], top_k=args["top_k"])
        return self.store.write_memory(args["text"])

    def close(self) -> None:
        self.store.close()


class InProcess:
    def __init__(self, path: Path) -> None:
        self.ctx = ServerContext(ServerConfig(path, clock=f"logical:{START}"))
        self.stack = ExitStack()
        self.portal = self.stack.enter_context(start_blocking_portal())
        self.client = self.stack.enter_context(self.portal.wrap_async_context_manager(Client(build_server(self.ctx))))

    def __call__(self, tool: str, args: dict) -> object:
        result = self.portal.call(self.client.call_tool, tool, args)
        assert not result.is_error
        return result

    def close(self) -> None:
        self.stack.close()
        self.ctx.close()


class Stdio:
    def __init__(self, path: Path, log: Path) -> None:
        params = StdioServerParameters(command=sys.executable, args=[
            "-m", "bench.cli.serve_cmd", "--data", str(path), "--clock", f"logical:{START}"])
        self.log = log.open("w")
        self.client = McpClientThread(params, errlog=self.log)

    def __call__(self, tool: str, args: dict) -> object:
        result = self.client.call(tool, args)
        assert not result.is_error
        return result

    def close(self) -> None:
        self.client.close()
        self.log.close()


@pytest.fixture(scope="module", params=["direct", "inproc", "stdio"])
def caller(request, data, tmp_path_factory):
    path, _ = data
    if request.param == "direct":
        c = Direct(path)
    elif request.param == "inproc":
        c = InProcess(path)
    else:
        c = Stdio(path, tmp_path_factory.mktemp("log") / "server.log")
    yield request.param, c
    c.close()


def _run(benchmark, caller, tool: str, make_args) -> None:
    variant, call = caller
    benchmark.group = tool
    benchmark.name = f"{tool}[{variant}]"
    benchmark(lambda: call(tool, make_args()))
    MEDIANS[(tool, variant)] = benchmark.stats.stats.median
    if variant != "direct" and (tool, "direct") in MEDIANS:
        benchmark.extra_info["x_direct"] = round(MEDIANS[(tool, variant)] / MEDIANS[(tool, "direct")], 1)
        benchmark.extra_info["overhead_ms"] = round((MEDIANS[(tool, variant)] - MEDIANS[(tool, "direct")]) * 1e3, 3)


def test_memory_get(benchmark, caller, data):
    ids = data[1]
    it = iter(range(10**9))
    _run(benchmark, caller, "memory_get", lambda: {"memory_id": ids[next(it) % len(ids)]})


def test_memory_search_structured(benchmark, caller):
    _run(benchmark, caller, "memory_search_structured", lambda: dict(QUERY))


def test_memory_write_structured(benchmark, caller):
    it = iter(range(10**9))
    _run(benchmark, caller, "memory_write_structured", lambda: {"text": f"benchmark note {next(it)} about caches"})


WRITERS, WRITES_EACH = 4, 25


def test_concurrent_writers(benchmark, tmp_path_factory):
    """4 stdio server processes on one folder, each written WRITES_EACH memories at the same time."""
    folder = tmp_path_factory.mktemp("concurrent")

    async def writers() -> float:
        ready: list[Client] = []
        done = anyio.Event()
        elapsed: list[float] = []

        async def one(w: int) -> None:
            params = StdioServerParameters(command=sys.executable, args=["-m", "reference.mcp_server", "--data",
                                                                           str(folder / "data")])
            async with Client(stdio_client(params)) as client:
                ready.append(client)
                while len(ready) < WRITERS:
                    await anyio.sleep(0.01)
                t0 = time.perf_counter()
                for i in range(WRITES_EACH):
                    r = await client.call_tool("memory_write_structured", {"text": f"writer {w} note {i}"})
                    assert not r.is_error
                elapsed.append(time.perf_counter() - t0)
                if len(elapsed) == WRITERS:
                    done.set()
                await done.wait()

        async with anyio.create_task_group() as tg:
            for w in range(WRITERS):
                tg.start_soon(one, w)
        return max(elapsed)

    seconds = benchmark.pedantic(lambda: anyio.run(writers), rounds=1, iterations=1)
    benchmark.extra_info["writes_per_second"] = round(WRITERS * WRITES_EACH / seconds, 1)
    with MemoryStore.open(folder / "data", clock=LogicalClock(START)) as store:
        assert store.stats()["counts"]["memories"] == WRITERS * WRITES_EACH
