"""A tiny stdio MCP server shaped like mcp-memory-libsql, for adapter tests that need no peer installed.

Its answers are the awkward ones an adapter must cope with: `put` answers only a sentence (no id),
`find` is a substring match that answers newest first, and `drop` of an unknown name is an error.
Usage: python fake_server.py DATA_DIR (everything it writes is DATA_DIR/entities.json).
"""
import json
import sys
from pathlib import Path

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

STORE = Path(sys.argv[1]) / "entities.json"
app = MCPServer("fake-memory")


def _load() -> dict[str, str]:
    return json.loads(STORE.read_text(encoding="utf-8")) if STORE.exists() else {}


def _save(entities: dict[str, str]) -> None:
    STORE.write_text(json.dumps(entities), encoding="utf-8")


@app.tool()
def put(name: str, text: str) -> str:
    """Store one named text."""
    entities = _load()
    entities[name] = text
    _save(entities)
    return "Successfully processed 1 entities"


@app.tool()
def find(query: str) -> dict:
    """Entities whose name or text contains the query, newest first."""
    found = [{"name": n, "observations": [t]} for n, t in _load().items() if query in n or query in t]
    return {"entities": found[::-1]}


@app.tool()
def drop(name: str) -> str:
    """Delete one entity; an unknown name is an error."""
    entities = _load()
    if name not in entities:
        raise ToolError(f"Entity not found: {name}")
    del entities[name]
    _save(entities)
    return f"deleted {name}"


if __name__ == "__main__":
    app.run()
