"""Structured memory tools of seed 000 §5.1, with the seed's names and arguments.

Extensions beyond the seed (optional, documented in the README): `metadata` on
`memory_write_structured` (seed 002/004 fields such as branch or memory type)
and `where_metadata` on `memory_search_structured` (equality filters on them).
Searches go through the server's ranker (`--ranker`, default the seed 000
design: filter in SQL, then semantic re-rank).
"""
from __future__ import annotations

from typing import Annotated, Any

from mcp.types import CallToolResult, TextContent
from pydantic import Field

from reference.mcp_server.context import ServerContext
from reference.mcp_server.limits import MAX_OFFSET
from reference.mcp_server.registry import ToolRegistry, argument
from reference.mcp_server.routing import routing
from reference.mcp_server.tools import key_hash, results
from reference.rankers import Query

TopK = Annotated[int, Field(ge=1, le=1000, description="Maximum results to return (1-1000)")]
Task = Annotated[str | None, Field(description='Task type, e.g. "task:debug", "task:refactor"')]
Contexts = Annotated[list[str] | None, Field(description='Context types, e.g. ["context:frontend"]')]
Insights = Annotated[list[str] | None, Field(description='Insight types, e.g. ["insight:decision"]')]
Tags = Annotated[list[str] | None, Field(description="Free-form tags")]
Metadata = Annotated[dict[str, Any] | None, Field(
    description="Extension: JSON object of extra fields (branch, commit_sha, memory type, ...)")]
WhereMetadata = Annotated[dict[str, list[Any]] | None, Field(
    description='Extension: metadata equality filter, e.g. {"branch": ["main"]}; keys ANDed, values ORed')]


def search(ctx: ServerContext, query: str | None, task: str | None = None, context: list[str] | None = None,
           insights: list[str] | None = None, tags: list[str] | None = None, top_k: int = 10,
           where_metadata: dict[str, list[Any]] | None = None) -> list[dict[str, Any]]:
    """Run a memory search through the server's ranker (shared with the older memory_search)."""
    hits = ctx.ranker.search(Query(query, task, context, insights, tags, top_k, where_metadata,
                                   session_id=ctx.session["session_id"]))
    return [results.memory_hit(h) for h in hits]


def register(server: ToolRegistry, ctx: ServerContext) -> None:
    @server.tool(routing=routing("memory_write_structured"))
    def memory_write_structured(
        text: Annotated[str, Field(description="The memory content to store")],
        task: Task = None,
        insights: Insights = None,
        context: Contexts = None,
        symbol_keys: Annotated[list[int | str] | None, Field(
            description="Key hashes (u64, numbers or decimal strings) of related symbols")] = None,
        tags: Tags = None,
        metadata: Metadata = None,
    ) -> dict[str, Any]:
        """Write a structured memory entry to the JIT index.

        Creates a memory entry with optional taxonomy classification. The entry is
        embedded for semantic search and stored persistently; secrets in the text,
        tags and metadata are redacted before anything is stored.
        Returns the memory entry with id, key_hash (and key_hash_str) and metadata.
        """
        keys = key_hash.parse_list(symbol_keys, "symbol_keys")
        entry = ctx.store.write_memory(text, task=task, insights=insights, context=context,
                                       symbol_keys=keys, tags=tags, metadata=metadata)
        return results.memory(entry)

    @server.tool(routing=routing("memory_search_structured"))
    def memory_search_structured(
        query: Annotated[str | None, Field(description="Natural language search query (optional)")] = None,
        task: Task = None,
        context: Contexts = None,
        insights: Insights = None,
        tags: Tags = None,
        top_k: TopK = 10,
        where_metadata: WhereMetadata = None,
    ) -> list[dict[str, Any]]:
        """Search memories with semantic and structured filters.

        Combines semantic similarity with taxonomy-based filtering for precise memory
        retrieval: every given filter must hold (context/insights/tags: all listed
        values present). Without a query, the newest matching memories come first.
        Returns matching memories with scores, best first.
        """
        return search(ctx, query, task, context, insights, tags, top_k, where_metadata)

    @server.tool(routing=routing("memory_get"))
    def memory_get(
        memory_id: Annotated[str, Field(description='The memory ID (e.g. "mem:a1b2c3d4")')],
    ) -> dict[str, Any] | None:
        """Retrieve a specific memory entry by ID. Returns the entry, or null if not found."""
        with argument("memory_id"):
            entry = ctx.store.get_memory(memory_id)
        if entry is None:
            # structured result null as the schema says, and a text a client reading only text can see
            # (the default text of a null result is empty)
            shown = memory_id if len(memory_id) <= 80 else memory_id[:77] + "..."
            return CallToolResult(content=[TextContent(type="text", text=f"no memory with id {shown!r}")],
                                  structured_content={"result": None})
        return results.memory(entry)

    @server.tool(routing=routing("memory_list_structured"))
    def memory_list_structured(
        task: Task = None,
        context: Contexts = None,
        limit: Annotated[int, Field(ge=1, le=10_000, description="Maximum entries to return")] = 50,
        offset: Annotated[int, Field(ge=0, le=MAX_OFFSET, description="Pagination offset")] = 0,
    ) -> list[dict[str, Any]]:
        """List memories with optional taxonomy filters, newest first."""
        return [results.memory(e) for e in ctx.store.list_memories(task=task, context=context, limit=limit,
                                                                     offset=offset)]

    @server.tool(routing=routing("memory_status"))
    def memory_status() -> dict[str, Any]:
        """Whether the memory store is whole: every damaged record found when it opened, with the
        store's error naming the file and the record. A damaged record's reads fail; the rest is served."""
        damaged = [d.error for d in ctx.store.tracker.damaged]
        return {"ok": not damaged, "damaged": damaged, "data_dir": str(ctx.data_dir)}
