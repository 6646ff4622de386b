"""`McpClientThread`: a real MCP client session over stdio, callable from synchronous code.

The `mcp` client is async. The backend interface is synchronous, so the client
runs on its own event loop in a background thread: one long-lived task holds
`Client(stdio_client(...))` open (its context must be entered and left in one
task) and each `call` is submitted to that loop with
`asyncio.run_coroutine_threadsafe`. Closing sets an event the task waits on;
leaving the client closes the server's stdin, which ends the server process.
"""
from __future__ import annotations

import asyncio
import threading
from typing import Any, TextIO

from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp_types import CallToolResult

START_TIMEOUT_S = 120.0   # a cold server start imports numpy, hyperscan, mcp; slow on a busy machine
CALL_TIMEOUT_S = 300.0    # indexing a large directory is one call


class McpClientThread:
    """A started stdio server process plus a connected client session; `close()` stops both."""

    def __init__(self, params: StdioServerParameters, errlog: TextIO, *, start_timeout: float = START_TIMEOUT_S,
                 call_timeout: float = CALL_TIMEOUT_S) -> None:
        self.call_timeout = call_timeout
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="mcp-client", daemon=True)
        self._thread.start()
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._client: Client | None = None
        self._stop: asyncio.Event | None = None
        self._session = asyncio.run_coroutine_threadsafe(self._hold(params, errlog), self._loop)
        if not self._ready.wait(start_timeout):
            self._shutdown_loop()
            raise TimeoutError(f"MCP server {params.command} {' '.join(params.args)} did not start in {start_timeout} s")
        if self._error is not None:
            self._shutdown_loop()
            raise RuntimeError(f"MCP server did not start: {self._error}") from self._error

    async def _hold(self, params: StdioServerParameters, errlog: TextIO) -> None:
        try:
            async with Client(stdio_client(params, errlog=errlog)) as client:
                self._client, self._stop = client, asyncio.Event()
                self._ready.set()
                await self._stop.wait()
        except BaseException as exc:
            if not self._ready.is_set():
                self._error = exc
                self._ready.set()
                return
            raise

    def call(self, name: str, arguments: dict[str, Any]) -> CallToolResult:
        """Call tool `name` and wait for its result (protocol errors raise; tool errors come back as is_error)."""
        if self._client is None:
            raise RuntimeError("MCP client is closed")
        future = asyncio.run_coroutine_threadsafe(self._client.call_tool(name, arguments), self._loop)
        return future.result(self.call_timeout)

    def list_tools(self) -> list[Any]:
        if self._client is None:
            raise RuntimeError("MCP client is closed")
        return asyncio.run_coroutine_threadsafe(self._client.list_tools(), self._loop).result(self.call_timeout).tools

    def close(self, timeout: float = 30.0) -> None:
        """End the session (the server exits when its stdin closes) and stop the loop thread."""
        if self._client is None:
            return
        self._client = None
        stop = self._stop
        if stop is not None:
            self._loop.call_soon_threadsafe(stop.set)
        try:
            self._session.result(timeout)
        finally:
            self._shutdown_loop()

    def _shutdown_loop(self) -> None:
        if self._loop.is_running():
            self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        if not self._loop.is_running():
            self._loop.close()
