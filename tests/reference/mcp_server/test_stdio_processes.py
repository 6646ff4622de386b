"""Real server processes over stdio: `codemem-bench serve`, and several servers writing one folder at once."""
from __future__ import annotations

import subprocess
import sys

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from reference.clock import LogicalClock
from reference.rankers import DEFAULT_RANKER
from reference.graph.store import GraphStore
from reference.store import MemoryStore
from tests.reference.mcp_server.test_tool_listing import EXPECTED, HARNESS

WORKERS, NOTES_EACH, NODES_EACH = 4, 50, 10


def serve(*args: str, module: str = "reference.mcp_server") -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", *module.split(), *args])


def value(result):
    assert not result.is_error, result.content
    out = result.structured_content
    return out["result"] if isinstance(out, dict) and set(out) == {"result"} else out


def test_codemem_bench_serve_parses_to_the_serve_command(tmp_path):
    from bench.cli import serve_cmd
    from bench.cli.main import build_parser
    from reference.mcp_server.cli import config_from_args

    args = build_parser().parse_args(["serve", "--data", str(tmp_path), "--clock", "logical:5", "--no-redact"])
    assert args.handler is serve_cmd.run
    config = config_from_args(args)
    assert (config.data_dir, config.clock, config.redact, config.ranker) == (tmp_path, "logical:5", False, DEFAULT_RANKER)


def test_serve_command_over_stdio(tmp_path):
    """`python -m bench.cli.serve_cmd` runs `codemem-bench serve` without importing the other commands."""
    data = tmp_path / "data"

    async def session():
        params = serve("--data", str(data), "--clock", "logical:1736935800", "--tools", "all",
                       module="bench.cli.serve_cmd")
        async with Client(stdio_client(params)) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert names == set(EXPECTED) | set(HARNESS)
            entry = value(await client.call_tool("memory_write_structured", {"text": "over a pipe", "tags": ["io"]}))
            bad = await client.call_tool("memory_get", {"memory_id": 7})
            assert bad.is_error and "memory_id" in bad.content[0].text
            assert value(await client.call_tool("memory_get", {"memory_id": entry["id"]}))["text"] == "over a pipe"
            return entry

    entry = anyio.run(session)
    with MemoryStore.open(data, clock=LogicalClock()) as store:    # the server closed the store cleanly
        got = store.get_memory(entry["id"])
        assert (got.text, got.tags, got.created_at) == ("over a pipe", ("io",), 1736935800.0)
        assert store.blob.recovered is None        # no torn tail to cut


def test_a_bad_clock_option_exits_with_a_message(tmp_path):
    done = subprocess.run([sys.executable, "-m", "reference.mcp_server", "--data", str(tmp_path), "--clock", "soon"],
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and "--clock 'soon'" in done.stderr


@pytest.mark.parametrize("clock", ["logical:1e308", "logical:-5"])
def test_a_clock_out_of_range_exits_with_a_message(tmp_path, clock):
    done = subprocess.run([sys.executable, "-m", "reference.mcp_server", "--data", str(tmp_path), "--clock", clock],
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and f"--clock {clock!r}" in done.stderr and "0 to 253402300799" in done.stderr


@pytest.mark.parametrize("module", ["bench.cli.serve_cmd", "bench.cli.main serve", "reference.mcp_server"])
def test_a_corrupt_tracker_db_exits_with_one_line_naming_it(tmp_path, module):
    data = tmp_path / "data"
    store = MemoryStore.open(data, clock=LogicalClock(1.0))
    store.write_memory("hello")
    store.tracker.checkpoint()
    store.close()
    db = data / "tracker.db"
    db.write_bytes(b"not a database, really" + db.read_bytes()[22:])
    done = subprocess.run([sys.executable, "-m", *module.split(), "--data", str(data)],
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "error: cannot open the store" in done.stderr and "tracker.db" in done.stderr


@pytest.mark.slow
def test_concurrent_server_processes_lose_nothing(tmp_path):
    """4 stdio sessions, each with its own server process on the same folder, write at the same time."""
    data = tmp_path / "data"
    written: dict[int, list[tuple[str, str]]] = {}

    async def worker(w: int, client: Client) -> None:
        written[w] = []
        for i in range(NOTES_EACH):
            text = f"worker {w} note {i}: cache entry {w * 1000 + i} expires"
            entry = value(await client.call_tool("memory_write_structured", {"text": text, "tags": [f"w{w}"]}))
            written[w].append((entry["id"], text))
            if i < NODES_EACH:
                value(await client.call_tool("graph_put_node", {"id": f"file:w{w}/n{i}.py", "type": "file",
                                                                "payload": {"w": w, "i": i}}))

    async def main() -> None:
        async with anyio.create_task_group() as connect:
            clients: dict[int, Client] = {}

            async def hold(w: int) -> None:
                async with Client(stdio_client(serve("--data", str(data), "--tools", "all"))) as client:
                    clients[w] = client
                    while len(clients) < WORKERS:      # start writing only when every server is up
                        await anyio.sleep(0.05)
                    await worker(w, client)

            for w in range(WORKERS):
                connect.start_soon(hold, w)

    anyio.run(main)
    ids = [mid for w in written for mid, _ in written[w]]
    assert len(ids) == WORKERS * NOTES_EACH == len(set(ids))
    with MemoryStore.open(data, clock=LogicalClock()) as store:
        assert store.stats()["counts"]["memories"] == WORKERS * NOTES_EACH
        assert store.blob.recovered is None        # no torn tail to cut
        for w, rows in written.items():
            for mid, text in rows:
                assert store.get_memory(mid).text == text
            assert {h.id for h in store.search_memories(tags=[f"w{w}"], top_k=1000)} == {mid for mid, _ in rows}
        top = store.search_memories("worker 2 note 7: cache entry 2007 expires", top_k=1)
        assert top[0].id == written[2][7][0]
    with GraphStore.open(data / "graph", clock=LogicalClock()) as graph:
        assert graph.revision() == WORKERS * NODES_EACH
        for w in range(WORKERS):
            for i in range(NODES_EACH):
                assert graph.get_node(f"file:w{w}/n{i}.py").payload == {"w": w, "i": i}
