"""`build_server`: the MCPServer over one data folder; `serve_stdio`: run it on stdin/stdout.

    ctx = ServerContext(ServerConfig(Path("data"), clock="logical:1736935800"))
    server = build_server(ctx)            # an mcp.server.mcpserver.MCPServer
    async with Client(server) as client:  # in-process, for tests
        await client.call_tool("memory_write_structured", {"text": "..."})
    ctx.close()

`serve_stdio(config)` opens the context, serves until the client closes stdin,
then closes the store (flushing telemetry). Several processes may serve the
same folder at once (one per agent); see README.md for how writes stay safe.
"""
from __future__ import annotations

import importlib
import logging
from collections.abc import Iterable

from mcp.server.mcpserver import MCPServer

from reference.mcp_server.context import ServerConfig, ServerContext
from reference.mcp_server.registry import ToolRegistry
from reference.mcp_server.tools import TOOL_MODULES

SERVER_NAME = "codemem-bench"

INSTRUCTIONS = """Persistent memory for coding work on this repository: structured memories (task, insight and
context types), code search over indexed files, Hyperscan pattern scans, an entity graph with point-in-time reads,
and policy memory (decisions, constraints, procedures). Search memories at the start of a task and write one
whenever a decision, constraint, assumption or tradeoff comes up; each tool's description says when to call it."""


def register_tools(ctx: ServerContext, modules: Iterable[str] = TOOL_MODULES) -> ToolRegistry:
    """Run `register(server, ctx)` of each tool module (skipping those whose `available(ctx)` is false)."""
    registry = ToolRegistry()
    for name in modules:
        module = importlib.import_module(f"reference.mcp_server.tools.{name}")
        available = getattr(module, "available", None)
        if available is not None and not available(ctx):
            continue
        module.register(registry, ctx)
    return registry


def build_server(ctx: ServerContext, modules: Iterable[str] = TOOL_MODULES, *,
                 log_level: str = "WARNING") -> MCPServer:
    """An MCPServer exposing every tool of `modules` over the open context."""
    registry = register_tools(ctx, modules)
    return MCPServer(SERVER_NAME, instructions=INSTRUCTIONS, tools=registry.tools, log_level=log_level)


def serve_stdio(config: ServerConfig, *, log_level: str = "WARNING") -> None:
    """Serve on stdin/stdout until the client disconnects; the store is closed on the way out."""
    ctx = ServerContext(config)
    try:
        server = build_server(ctx, log_level=log_level)
        logging.getLogger("reference.mcp_server").info("serving %s (clock %s)", ctx.data_dir, ctx.clock.spec())
        server.run("stdio")
    finally:
        ctx.close()
