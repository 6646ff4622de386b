"""JIT code tools of seed 000 §0: index files and directories, search code and symbols."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from bench.backends.capabilities import Capability as C
from bench.steps.memory import ranked
from bench.steps.registry import Outcome, step


class IndexDirectory(BaseModel):
    model_config = ConfigDict(extra="forbid")
    path: str


class IndexFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    path: str
    root: str


class Search(BaseModel):
    model_config = ConfigDict(extra="forbid")
    query: str
    top_k: int = Field(10, ge=1, le=1000)
    types: list[str] | None = None


class CodeQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    query: str
    top_k: int = Field(10, ge=1, le=1000)


@step("jit_index_directory", args=IndexDirectory, requires=(C.CODE_INDEX,), op="write")
def jit_index_directory(ctx, a: IndexDirectory) -> Outcome:
    return Outcome(value=ctx.backend.index_directory(ctx.path(a.path)))


@step("jit_index_file", args=IndexFile, requires=(C.CODE_INDEX,), op="write")
def jit_index_file(ctx, a: IndexFile) -> Outcome:
    return Outcome(value=ctx.backend.index_file(ctx.path(a.path), ctx.path(a.root)))


@step("jit_search", args=Search, requires=(C.CODE_SEARCH,), op="query")
def jit_search(ctx, a: Search) -> Outcome:
    """Unified search across files, symbols, chunks and memories (seed 000 §4.2)."""
    return ranked(ctx.backend.search_all(a.query, a.top_k, a.types))


@step("code_search", args=CodeQuery, requires=(C.CODE_SEARCH,), op="query")
def code_search(ctx, a: CodeQuery) -> Outcome:
    return ranked(ctx.backend.code_search(a.query, a.top_k))


@step("symbol_search", args=CodeQuery, requires=(C.CODE_SEARCH,), op="query")
def symbol_search(ctx, a: CodeQuery) -> Outcome:
    return ranked(ctx.backend.symbol_search(a.query, a.top_k))
