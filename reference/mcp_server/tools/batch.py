"""`memory_write_batch`: several structured memories in one call (issue 15, fast writes).

Not in the `core` profile (the seed's four memory tools); in `memory` and `all`.
"""
from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from reference.mcp_server.context import ServerContext
from reference.mcp_server.registry import ToolRegistry
from reference.mcp_server.routing import routing
from reference.mcp_server.tools import key_hash, results


def register(server: ToolRegistry, ctx: ServerContext) -> None:
    @server.tool(routing=routing("memory_write_batch"))
    def memory_write_batch(
        memories: Annotated[list[dict[str, Any]], Field(description=(
            "The memories to store, in order: each an object with memory_write_structured's arguments "
            "(text required; task, insights, context, symbol_keys, tags, metadata optional)"))],
    ) -> list[dict[str, Any]]:
        """Write several structured memories in one call and one transaction.

        Stores what the same memory_write_structured calls one after another would
        (ids, rows, links of the knowledge layer), at a fraction of the cost: one
        embedding batch, one commit. Every item is checked before any is stored, so one
        bad item stores none and the error names it (`record N: ...`). At most 256 items.
        Returns the entries in order, as memory_write_structured returns one.
        """
        records = []
        for i, item in enumerate(memories):
            rec = dict(item) if isinstance(item, dict) else item   # the store names a non-object item
            if isinstance(rec, dict) and rec.get("symbol_keys") is not None:
                rec["symbol_keys"] = key_hash.parse_list(rec["symbol_keys"], f"memories[{i}].symbol_keys")
            records.append(rec)
        return [results.memory(e) for e in ctx.store.write_memories(records)]
