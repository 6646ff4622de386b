"""`McpClientThread`: a real MCP client session over stdio, callable from synchronous code.

The `mcp` client is async; the backend interface is synchronous. An anyio
blocking portal runs an event loop on a background thread: the client's
context (`Client(stdio_client(...))`, which starts the server process) is
entered and left inside one portal task, and each `call` is submitted to the
loop from the caller's thread. Closing leaves the client, which closes the
server's stdin; the server then closes its store and exits.
"""
from __future__ import annotations

from contextlib import ExitStack
from typing import Any, TextIO

from anyio.from_thread import start_blocking_portal
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp_types import CallToolResult

CALL_TIMEOUT_S = 300.0    # indexing a large directory is one call


class McpClientThread:
    """A started stdio server process plus a connected client session; `close()` stops both."""

    def __init__(self, params: StdioServerParameters, errlog: TextIO, *, call_timeout: float = CALL_TIMEOUT_S) -> None:
        self.call_timeout = call_timeout
        self._stack = ExitStack()
        try:
            self._portal = self._stack.enter_context(start_blocking_portal())
            self._client: Client | None = self._stack.enter_context(
                self._portal.wrap_async_context_manager(Client(stdio_client(params, errlog=errlog))))
        except BaseException:
            self._stack.close()
            raise

    def call(self, name: str, arguments: dict[str, Any]) -> CallToolResult:
        """Call tool `name` and wait for its result (tool errors come back with `is_error`)."""
        client = self._require()
        return self._portal.start_task_soon(client.call_tool, name, arguments).result(self.call_timeout)

    def list_tools(self) -> list[Any]:
        client = self._require()
        return self._portal.start_task_soon(client.list_tools).result(self.call_timeout).tools

    def _require(self) -> Client:
        if self._client is None:
            raise RuntimeError("MCP client is closed")
        return self._client

    def close(self) -> None:
        """End the session (the server exits when its stdin closes) and stop the loop thread."""
        if self._client is not None:
            self._client = None
            self._stack.close()
