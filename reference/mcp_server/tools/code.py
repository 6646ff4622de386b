"""JIT code tools that seed 000 §0 keeps: jit_index_file, jit_index_directory, jit_search,
code_search, symbol_search, register_file.

The seed names them without arguments; the choices here (README): a relative
`path` or `root` is resolved against the server's `--root` (default: its
working directory) and every path must resolve, symlinks followed, inside it
(`reference.path_policy`; a `root` argument narrows, never widens); keys are relative to the index root, which for
`jit_index_directory` is the directory itself (as the store and the harness
do); `types` of `jit_search` is any of file, symbol, chunk, memory.
"""
from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from reference.mcp_server.context import ServerContext
from reference.mcp_server.registry import ToolRegistry
from reference.mcp_server.routing import routing
from reference.mcp_server.tools import results
from reference.mcp_server.tools.memory import TopK

Path_ = Annotated[str, Field(description="File path; relative paths are resolved against the server's root")]
Root = Annotated[str | None, Field(
    description="Index root the key is relative to (default: the server's root)")]
QueryText = Annotated[str, Field(description="What to look for, in words or as a name")]


def register(server: ToolRegistry, ctx: ServerContext) -> None:
    def file_and_root(path: str, root: str | None) -> tuple[Any, Any]:
        """(file, index root), both resolved inside the server's root; the file inside the index root."""
        index_root = ctx.path(root, "root") if root is not None else ctx.root
        return ctx.path(path, "path", within=index_root), index_root

    @server.tool(routing=routing("jit_index_file"))
    def jit_index_file(path: Path_, root: Root = None) -> dict[str, Any]:
        """Index one source file: its record, symbols (Python) and 40-line chunks, all embedded.

        An unchanged file is skipped. Returns counts, the file keys and any parse errors."""
        return ctx.store.index_file(*file_and_root(path, root)).to_dict()

    @server.tool(routing=routing("jit_index_directory"))
    def jit_index_directory(
        path: Annotated[str, Field(description="Directory to index; keys are relative to it")] = ".",
        glob: Annotated[str, Field(description="Which files, as a glob under the directory")] = "**/*.py",
    ) -> dict[str, Any]:
        """Index every matching file under a directory (hidden folders and __pycache__ skipped).

        Returns counts, file keys, and the files that could not be indexed (a symlink that leads
        outside the directory is one of them)."""
        return ctx.store.index_directory(ctx.path(path, "path"), ctx.paths.glob(glob, "glob")).to_dict()

    @server.tool(routing=routing("jit_search"))
    def jit_search(
        query: QueryText,
        top_k: TopK = 10,
        types: Annotated[list[str] | None, Field(
            description='Restrict to kinds: any of "file", "symbol", "chunk", "memory"')] = None,
    ) -> list[dict[str, Any]]:
        """Semantic search across files, symbols, chunks and memories at once (seed 000 §4.2)."""
        return [results.hit(h) for h in ctx.store.search_all(query, top_k=top_k, types=types)]

    @server.tool(routing=routing("code_search"))
    def code_search(query: QueryText, top_k: TopK = 10) -> list[dict[str, Any]]:
        """Semantic search over indexed code chunks and files. Returns keys, scores, paths and lines."""
        return [results.hit(h) for h in ctx.store.code_search(query, top_k=top_k)]

    @server.tool(routing=routing("symbol_search"))
    def symbol_search(query: QueryText, top_k: TopK = 10) -> list[dict[str, Any]]:
        """Find functions, classes and methods by name or meaning (exact name matches rank first)."""
        return [results.hit(h) for h in ctx.store.symbol_search(query, top_k=top_k)]

    @server.tool(routing=routing("register_file"))
    def register_file(path: Path_, root: Root = None) -> dict[str, Any]:
        """Store a file's text and vector without symbols or chunks (docs, configs). Returns its row."""
        return ctx.store.register_file(*file_and_root(path, root))
