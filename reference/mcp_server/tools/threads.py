"""The older free-form memory tools that seed 000 §0 keeps: memory_write, memory_search, memory_list_threads.

The seed names them without arguments; the choices here: a `thread` is kept as
the tag `thread:<name>` (as the harness's `memory_write` step does), so
`memory_search(thread=...)` is a tag filter and `memory_list_threads` counts
those tags.
"""
from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from reference.mcp_server.context import ServerContext
from reference.mcp_server.registry import ArgumentError, ToolRegistry
from reference.mcp_server.routing import routing
from reference.mcp_server.tools import results
from reference.mcp_server.tools.memory import TopK, search

THREAD_TAG = "thread:"

Thread = Annotated[str | None, Field(description="Conversation thread name (stored as the tag thread:<name>)")]


def thread_tag(thread: str) -> str:
    if not thread.strip():
        raise ArgumentError("thread", "must be a non-empty name")
    return THREAD_TAG + thread


def register(server: ToolRegistry, ctx: ServerContext) -> None:
    @server.tool(routing=routing("memory_write"))
    def memory_write(
        text: Annotated[str, Field(description="The note to store")],
        thread: Thread = None,
        tags: Annotated[list[str] | None, Field(description="Free-form tags")] = None,
    ) -> dict[str, Any]:
        """Write a free-form memory, optionally into a conversation thread. Returns the entry."""
        all_tags = list(tags or []) + ([thread_tag(thread)] if thread is not None else [])
        return results.memory(ctx.store.write_memory(text, tags=all_tags or None))

    @server.tool(routing=routing("memory_search"))
    def memory_search(
        query: Annotated[str, Field(description="Natural language search query")],
        top_k: TopK = 10,
        thread: Thread = None,
    ) -> list[dict[str, Any]]:
        """Search memories by meaning (optionally only one thread's). Returns memories with scores."""
        tags = [thread_tag(thread)] if thread is not None else None
        return search(ctx, query, tags=tags, top_k=top_k)

    @server.tool(routing=routing("memory_list_threads"))
    def memory_list_threads() -> list[dict[str, Any]]:
        """List conversation threads: name, number of memories, time of the newest (Unix seconds)."""
        threads: dict[str, dict[str, Any]] = {}
        for entry in ctx.store.iter_memories():
            for tag in entry.tags:
                if tag.startswith(THREAD_TAG):
                    name = tag[len(THREAD_TAG):]
                    t = threads.setdefault(name, {"thread": name, "count": 0, "last_written_at": entry.created_at})
                    t["count"] += 1
                    t["last_written_at"] = max(t["last_written_at"], entry.created_at)
        return [threads[name] for name in sorted(threads)]
