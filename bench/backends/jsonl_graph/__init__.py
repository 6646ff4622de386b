"""The `jsonl-graph` backend: the knowledge-graph JSONL file of the reference MCP "memory" server."""
