"""Fixtures: a server over a fresh data folder and a real `mcp.Client` connected to it in-process.

`mcp` is the synchronous wrapper tests use: `mcp.call(name, **args)` returns the
tool's structured result (unwrapped from `{"result": ...}`) and fails the test
on a tool error; `mcp.error(name, **args)` returns the error text and fails if
the call succeeded.
"""
from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from anyio.from_thread import start_blocking_portal
from mcp import Client

from reference.mcp_server import ServerConfig, ServerContext, build_server

START = 1_736_935_800.0


class SyncClient:
    """A real MCP client session on a background event loop, called synchronously."""

    def __init__(self, server: Any) -> None:
        self._stack = ExitStack()
        self._portal = self._stack.enter_context(start_blocking_portal())
        self.client = self._stack.enter_context(self._portal.wrap_async_context_manager(Client(server)))

    def raw(self, tool: str, args: dict[str, Any]) -> Any:
        return self._portal.call(self.client.call_tool, tool, args)

    def call(self, tool: str, /, **args: Any) -> Any:
        result = self.raw(tool, args)
        assert not result.is_error, f"{tool}({args}) failed: {result.content}"
        out = result.structured_content
        return out["result"] if isinstance(out, dict) and set(out) == {"result"} else out

    def error(self, tool: str, /, **args: Any) -> str:
        result = self.raw(tool, args)
        assert result.is_error, f"{tool}({args}) should have failed but returned {result.structured_content}"
        return " ".join(c.text for c in result.content)

    def tools(self) -> list[Any]:
        return self._portal.call(self.client.list_tools).tools

    def close(self) -> None:
        self._stack.close()


def open_server(data_dir: Path, **options: Any) -> tuple[ServerContext, SyncClient]:
    options.setdefault("clock", f"logical:{START}")
    options.setdefault("tools", "all")
    ctx = ServerContext(ServerConfig(data_dir, **options))
    return ctx, SyncClient(build_server(ctx))


@pytest.fixture
def served(tmp_path):
    """(context, client) over `tmp_path / "data"` on a logical clock at START."""
    ctx, client = open_server(tmp_path / "data", root=tmp_path)
    yield ctx, client
    client.close()
    ctx.close()


@pytest.fixture
def mcp(served):
    return served[1]


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    """(context, client) shared by a module's tests that do not depend on each other's writes."""
    root = tmp_path_factory.mktemp("shared")
    ctx, client = open_server(root / "data", root=root)
    yield ctx, client
    client.close()
    ctx.close()
