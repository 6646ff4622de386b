"""The `reference-mcp` backend: the reference store through a real MCP stdio session."""
