"""`build_server`: the MCPServer over one data folder; `serve_streams`: serve it on a pair of text streams.

    ctx = ServerContext(ServerConfig(Path("data"), clock="logical:1736935800"))
    server = build_server(ctx)            # an mcp.server.mcpserver.MCPServer
    async with Client(server) as client:  # in-process, for tests
        await client.call_tool("memory_write_structured", {"text": "..."})
    ctx.close()

`fast_start.serve_stdio(config)`, the entry point, answers the first calls itself and hands
the rest to `serve_streams`, which opens the context, serves until the client closes stdin,
then closes the store (flushing telemetry). This module never imports `fast_start` (the
front imports it, on a worker thread). Several processes may serve the same folder at once
(one per agent); see README.md for how writes stay safe.
"""
from __future__ import annotations

import importlib
import logging
from collections.abc import Iterable
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import ValidationError

from reference.mcp_server.context import ServerConfig, ServerContext, open_context
from reference.mcp_server.error_text import MAX_ERROR_CHARS, clip, validation_text
from reference.mcp_server.limits import MAX_TOOL_NAME, check_call
from reference.mcp_server.profiles import server_modules
from reference.mcp_server.registry import ArgumentError, ToolRegistry

SERVER_NAME = "codemem-bench"

INSTRUCTIONS = """Persistent memory for coding work on this repository: structured memories (task, insight and
context types), code search over indexed files, Hyperscan pattern scans, an entity graph with point-in-time reads,
and policy memory (decisions, constraints, procedures). Search memories at the start of a task and write one
whenever a decision, constraint, assumption or tradeoff comes up; each tool's description says when to call it."""


class BoundedServer(MCPServer):
    """An `MCPServer` that checks argument limits before a call and keeps every error text short.

    Limits (`limits.check_call`) run on the raw JSON before pydantic or the tool
    see it; a failed call's text is rebuilt from the validation errors
    (`error_text.validation_text`) or clipped, so no error echoes a huge input."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        label = name if len(name) <= MAX_TOOL_NAME else f"{name[:40]}... ({len(name):,} characters)"
        try:
            if self._tool_manager.get_tool(name) is not None:
                check_call(name, arguments)
            return await super().call_tool(name, arguments, context)
        except ArgumentError as exc:
            raise ToolError(clip(f"Error executing tool {label}: {exc}")) from exc
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                text = f"Error executing tool {label}: {validation_text(cause)}"
            elif str(exc).startswith("Unknown tool"):
                text = f"Unknown tool: {label}"
            else:
                text = str(exc)
            if text == str(exc) and len(text) <= MAX_ERROR_CHARS:
                raise
            raise type(exc)(clip(text)) from cause


def register_tools(ctx: ServerContext, modules: Iterable[str] | None = None) -> ToolRegistry:
    """Run `register(server, ctx)` of each tool module (skipping those whose `available(ctx)` is false).

    `modules` defaults to the context's tool profile (`server_modules`)."""
    registry = ToolRegistry()
    for name in server_modules(ctx.config) if modules is None else modules:
        module = importlib.import_module(f"reference.mcp_server.tools.{name}")
        available = getattr(module, "available", None)
        if available is not None and not available(ctx):
            continue
        module.register(registry, ctx)
    return registry


def build_server(ctx: ServerContext, modules: Iterable[str] | None = None, *,
                 log_level: str = "WARNING") -> MCPServer:
    """An MCPServer exposing every tool of `modules` (default: the context's profile) over the open context."""
    registry = register_tools(ctx, modules)
    return BoundedServer(SERVER_NAME, instructions=INSTRUCTIONS, tools=registry.tools, log_level=log_level)


def serve_streams(config: ServerConfig, *, log_level: str = "WARNING", stdin: Any = None,
                  stdout: Any = None) -> None:
    """Open the context and serve MCP on `stdin`/`stdout` (text files; default the process's) until EOF.

    `fast_start.serve_stdio` is the entry point: it answers the first calls and
    gives this its pipes. `StartupError` if the data folder cannot be opened."""
    import anyio
    from mcp.server.stdio import stdio_server

    ctx = open_context(config)
    try:
        server = build_server(ctx, log_level=log_level)
        logging.getLogger("reference.mcp_server").info("serving %s (clock %s)", ctx.data_dir, ctx.clock.spec())
        if stdin is None and stdout is None:
            server.run("stdio")
            return
        lowlevel = server._lowlevel_server    # what MCPServer.run_stdio_async does, on the given streams

        async def run() -> None:
            async with stdio_server(anyio.wrap_file(stdin), anyio.wrap_file(stdout)) as (read, write):
                await lowlevel.run(read, write, lowlevel.create_initialization_options())

        anyio.run(run)
    finally:
        ctx.close()
