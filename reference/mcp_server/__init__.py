"""The MCP server over the reference store: every tool the seeds name, served over stdio.

    from reference.mcp_server import ServerConfig, ServerContext, build_server
    ctx = ServerContext(ServerConfig(data_dir))
    server = build_server(ctx)      # mcp.server.mcpserver.MCPServer

Run it with `codemem-bench serve --data DIR` (or `python -m reference.mcp_server
--data DIR`). Tools, arguments, routing and the client configuration: README.md.
Names are imported lazily, so the command line can read its options without
loading the `mcp` package or opening anything.
"""
from __future__ import annotations

from reference.lazy_exports import lazy_getattr

_EXPORTS = {
    "ServerConfig": "reference.mcp_server.config",
    "ServerContext": "reference.mcp_server.context",
    "ArgumentError": "reference.mcp_server.registry",
    "ToolRegistry": "reference.mcp_server.registry",
    "build_server": "reference.mcp_server.server",
    "register_tools": "reference.mcp_server.server",
    "serve_stdio": "reference.mcp_server.fast_start",
}
__all__ = sorted(_EXPORTS)


__getattr__ = lazy_getattr('reference.mcp_server', _EXPORTS, globals())
