"""`reference-mcp`: this project's own MCP server as a backend, i.e. `mcp:reference` under its own name."""
from __future__ import annotations

from bench.backends.mcp.adapter import load_adapter
from bench.backends.mcp.backend import McpBackend


class ReferenceMcpBackend(McpBackend):
    """`reference-mcp`: this project's server (`codemem-bench serve --tools all`), i.e. `mcp:reference`."""

    name = "reference-mcp"
    options = ()
    same_as = "mcp:reference"   # the contract suite runs one of the two

    @classmethod
    def variants(cls) -> dict[str, frozenset]:
        """One listing row, `reference-mcp`, with the capabilities of the adapter it runs (for listings)."""
        return {cls.name: frozenset(load_adapter("reference").capabilities)}

    def __init__(self, option: str | None = None) -> None:
        if option:
            raise ValueError(f"backend 'reference-mcp' has no option {option[:40]!r} (options: none)")
        super().__init__("reference")
        self.option = None
