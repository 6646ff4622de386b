"""`mcp:NAME`: any MCP memory server driven over stdio, described by one adapter file."""
