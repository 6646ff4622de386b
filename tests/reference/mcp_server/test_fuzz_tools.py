"""Property-based fuzzing of every MCP tool through its input schema (in process, and a stdio smoke).

For each tool, hypothesis draws arguments from the tool's published schema
(`schema_strategies`), some broken on purpose. Every call must answer a result
or a short error (never an `internal error`), the server must keep serving,
and a failed call must leave the store's logical content (`digest`) as it was.

CI runs `CODEMEM_FUZZ_EXAMPLES` (default 4) examples per tool; a larger run:

    CODEMEM_FUZZ_EXAMPLES=200 python3 -m pytest -q -p no:cacheprovider tests/reference/mcp_server/test_fuzz_tools.py
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings

from reference.graph.at import At
from reference.mcp_server.error_text import MAX_ERROR_CHARS
from tests.reference.mcp_server.conftest import open_server
from tests.reference.mcp_server.schema_strategies import arguments
from tests.reference.mcp_server.test_tool_listing import EXPECTED, HARNESS

EXAMPLES = int(os.environ.get("CODEMEM_FUZZ_EXAMPLES", "4"))
MAX_ERROR_TEXT = MAX_ERROR_CHARS + 100


def digest(ctx) -> str:
    """A hash of the store's logical content: every tracker row, every graph change, the saved files."""
    h = hashlib.sha256()
    for line in ctx.store.tracker.conn().iterdump():
        h.update(line.encode())
    for change in ctx.graph().diff_since(At.rev(0)):
        h.update(json.dumps(change.to_dict(), sort_keys=True, default=str).encode())
    for folder in ("pattern_sets", "snapshots"):
        for p in sorted((ctx.data_dir / folder).glob("*")):
            h.update(p.name.encode() + p.read_bytes())
    return h.hexdigest()


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory):
    """A server over a small store: a memory, an indexed file, graph nodes and a policy entry."""
    root = tmp_path_factory.mktemp("fuzz")
    (root / "src").mkdir()
    (root / "src" / "a.py").write_text("def f():\n    return 1\n")
    ctx, mcp = open_server(root / "data", root=root)
    mcp.call("memory_write_structured", text="we chose postgres for the auth service", task="task:debug")
    mcp.call("jit_index_file", path="src/a.py")
    mcp.call("graph_put_node", id="file:a.py", type="file", payload={"n": 1})
    mcp.call("graph_put_node", id="file:b.py", type="file")
    mcp.call("policy_put", scope="repo", namespace="decision", key="k", payload="v")
    yield ctx, mcp
    mcp.close()
    ctx.close()


@pytest.fixture(scope="module")
def schemas(fuzzed):
    return {t.name: t.input_schema for t in fuzzed[1].tools()}


TOOLS = sorted({**EXPECTED, **HARNESS})


@pytest.mark.parametrize("tool", TOOLS)
def test_every_call_answers_a_result_or_a_short_error_and_a_failure_changes_nothing(fuzzed, schemas, tool):
    ctx, mcp = fuzzed

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                     HealthCheck.data_too_large])
    @given(args=arguments(schemas[tool]))
    def check(args):
        before = digest(ctx)
        result = mcp.raw(tool, args)
        if result.is_error:
            text = " ".join(c.text for c in result.content)
            assert len(text) <= MAX_ERROR_TEXT, (tool, len(text))
            assert "internal error" not in text and "Error executing tool " + tool in text, text[:400]
            assert digest(ctx) == before, f"{tool} failed ({text[:200]}) but changed the store"
        assert isinstance(mcp.call("memory_list_structured", limit=1), list)   # still serving

    check()


HOSTILE = [
    ("memory_write_structured", {"text": "x" * 10_000_000}),
    ("memory_write_structured", {"text": "x", "tags": [1] * 100_000}),
    ("jit_index_file", {"path": "/etc/passwd", "root": "/etc"}),
    ("graph_put_node", {"id": "file:a.py", "type": "file", "ts": 1e308}),
    ("_harness_set_clock", {"time": 2 ** 64}),
    ("memory_list_structured", {"offset": 2 ** 64}),
    ("no_such_tool", {}),
]


def test_a_stdio_server_survives_hostile_calls(tmp_path):
    """The same over a real stdio server process: short errors, and it still answers afterwards."""
    import anyio
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable, args=[
        "-m", "reference.mcp_server", "--data", str(tmp_path / "data"), "--tools", "all", "--root", str(tmp_path),
        "--clock", "logical:1736935800"])

    async def session():
        async with Client(stdio_client(params, errlog=subprocess.DEVNULL)) as client:
            for tool, args in HOSTILE:
                result = await client.call_tool(tool, args)
                text = " ".join(c.text for c in result.content)
                assert result.is_error and len(text) <= MAX_ERROR_TEXT and "internal error" not in text, text[:300]
            ok = await client.call_tool("memory_write_structured", {"text": "still here"})
            assert not ok.is_error
            listed = await client.call_tool("memory_list_structured", {})
            return [m["text"] for m in listed.structured_content["result"]]

    assert anyio.run(session) == ["still here"]


@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")  # the 100 kB example's repr
def test_the_strategies_draw_broken_and_fitting_calls():
    """The fuzzer is not vacuous: it draws both valid calls and each kind of broken one."""
    from hypothesis import find

    schema = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
    # `find` raises NoSuchExample when no drawn value satisfies the condition
    assert find(arguments(schema), lambda a: set(a) == {"text"} and isinstance(a["text"], str)) == {"text": ""}
    assert "text" in find(arguments(schema), lambda a: any(k.startswith("unexpected_") for k in a))
    assert find(arguments(schema), lambda a: "text" not in a) == {}
    assert not isinstance(find(arguments(schema), lambda a: not isinstance(a.get("text", ""), str))["text"], str)
    assert len(find(arguments(schema), lambda a: len(str(a.get("text", ""))) > 50_000)["text"]) >= 100_000
