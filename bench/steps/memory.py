"""Structured memory tools of seed 000 §5.1, and the older memory tools of §0."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bench.backends.capabilities import Capability as C
from bench.backends.interface import Hit, Unsupported
from bench.steps.registry import Outcome, step


def ranked(hits: list[Hit]) -> Outcome:
    """An outcome from hits in the order the backend returned them (graded as is; scores kept beside)."""
    return Outcome(ranked=[h.id for h in hits], scores=[h.score for h in hits], value=[h.id for h in hits])


class WriteStructured(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str
    task: str | None = None
    insights: list[str] | None = None
    context: list[str] | None = None
    symbol_keys: list[int] | None = None
    tags: list[str] | None = None
    metadata: dict[str, Any] | None = None  # harness extension: seed 002/004 fields


class SearchStructured(BaseModel):
    model_config = ConfigDict(extra="forbid")
    query: str | None = None
    task: str | None = None
    context: list[str] | None = None
    insights: list[str] | None = None
    tags: list[str] | None = None
    top_k: int = Field(10, ge=1, le=1000)
    # harness extension: the agent's working files; passed only to a backend declaring memory.working_paths
    paths: list[str] | None = Field(None, max_length=1000)


class Get(BaseModel):
    model_config = ConfigDict(extra="forbid")
    memory_id: str


class ListStructured(BaseModel):
    model_config = ConfigDict(extra="forbid")
    task: str | None = None
    context: list[str] | None = None
    limit: int = Field(50, ge=1, le=10_000)
    offset: int = Field(0, ge=0)


class MemoryWrite(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str
    thread: str | None = None
    tags: list[str] | None = None


class MemorySearch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    query: str
    top_k: int = Field(10, ge=1, le=1000)


def _has_filters(a: SearchStructured) -> bool:
    return any(v for v in (a.task, a.context, a.insights, a.tags))


@step("memory_write_structured", args=WriteStructured, requires=(C.MEMORY_WRITE,), op="write")
def memory_write_structured(ctx, a: WriteStructured) -> Outcome:
    mid = ctx.backend.write_memory(a.text, a.task, a.insights, a.context, a.symbol_keys, a.tags, a.metadata)
    return Outcome(created_id=mid, value=mid)


@step("memory_search_structured", args=SearchStructured, requires=(C.MEMORY_SEARCH,), op="query")
def memory_search_structured(ctx, a: SearchStructured) -> Outcome:
    if _has_filters(a) and not ctx.backend.supports(C.MEMORY_FILTERS):
        raise Unsupported(C.MEMORY_FILTERS, ctx.backend.label)
    if a.paths and ctx.backend.supports(C.WORKING_PATHS):
        return ranked(ctx.backend.search_memories(a.query, a.task, a.context, a.insights, a.tags, a.top_k,
                                                  paths=list(a.paths)))
    return ranked(ctx.backend.search_memories(a.query, a.task, a.context, a.insights, a.tags, a.top_k))


@step("memory_get", args=Get, requires=(C.MEMORY_GET,), op="read")
def memory_get(ctx, a: Get) -> Outcome:
    return Outcome(value=ctx.backend.get_memory(a.memory_id))


@step("memory_list_structured", args=ListStructured, requires=(C.MEMORY_LIST,), op="read")
def memory_list_structured(ctx, a: ListStructured) -> Outcome:
    if (a.task or a.context) and not ctx.backend.supports(C.MEMORY_FILTERS):
        raise Unsupported(C.MEMORY_FILTERS, ctx.backend.label)
    rows = ctx.backend.list_memories(a.task, a.context, a.limit, a.offset)
    return Outcome(ranked=[r["id"] for r in rows], value=rows)


@step("memory_write", args=MemoryWrite, requires=(C.MEMORY_WRITE,), op="write")
def memory_write(ctx, a: MemoryWrite) -> Outcome:
    """The older free-form write: a thread is kept as a tag `thread:<name>`."""
    tags = list(a.tags or []) + ([f"thread:{a.thread}"] if a.thread else [])
    mid = ctx.backend.write_memory(a.text, tags=tags or None)
    return Outcome(created_id=mid, value=mid)


@step("memory_search", args=MemorySearch, requires=(C.MEMORY_SEARCH,), op="query")
def memory_search(ctx, a: MemorySearch) -> Outcome:
    """The older unfiltered search."""
    return ranked(ctx.backend.search_memories(a.query, top_k=a.top_k))

