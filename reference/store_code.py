"""The code index through `MemoryStore`: indexing files, code and symbol searches, and unified vector search.

Each operation is one telemetry event; `MemoryStore` binds these functions as its methods.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from reference import code_search as _code
from reference.indexer import IndexResult
from reference.memory_args import check_count
from reference.memory_record import SearchHit
from reference.vector_search import check_kinds, topk_hits

if TYPE_CHECKING:
    from reference.store import MemoryStore


def index_file(store: MemoryStore, path: str | Path, root: str | Path) -> IndexResult:
    store._check_open()
    with store.telemetry.measure("write", "file") as ev:
        result = store.indexer.index_file(path, root)
        ev.memory_id = result.file_keys[0] if result.file_keys else None
        ev.extra.update(symbols=result.symbols, chunks=result.chunks, unchanged=result.files_unchanged)
    return result


def index_directory(store: MemoryStore, root: str | Path, glob: str = "**/*.py") -> IndexResult:
    store._check_open()
    with store.telemetry.measure("write", "file", mode="directory") as ev:
        result = store.indexer.index_directory(root, glob)
        ev.extra.update(files=result.files_indexed, unchanged=result.files_unchanged, errors=len(result.errors))
    return result


def register_file(store: MemoryStore, path: str | Path, root: str | Path) -> dict:
    store._check_open()
    with store.telemetry.measure("write", "file", mode="register") as ev:
        row = store.indexer.register_file(path, root)
        ev.memory_id = row["key"]
    return row


def search_all(store: MemoryStore, query: str, top_k: int = 10, types: list[str] | None = None) -> list[SearchHit]:
    """Seed 000 §4.2: semantic search across files, symbols, chunks and memories."""
    store._check_open()
    kinds = check_kinds(types)
    with store.telemetry.measure("query", None, mode="unified") as ev:
        hits = topk_hits(store.tracker, store.vectors, store.memories.embed_query(query), check_count("top_k", top_k),
                         kinds)
        ev.extra["results"] = len(hits)
    return hits


def vector_topk(store: MemoryStore, query: str, k: int, kinds: tuple[str, ...] | list[str] = ("memory",)
                ) -> list[SearchHit]:
    store._check_open()
    return topk_hits(store.tracker, store.vectors, store.memories.embed_query(query), check_count("top_k", k),
                     check_kinds(kinds))


def code_search(store: MemoryStore, query: str, top_k: int = 10) -> list[SearchHit]:
    store._check_open()
    return _counted(store, "chunk", "code", lambda: _code.code_search(
        store.tracker, store.vectors, store.memories.embed_query(query), check_count("top_k", top_k)))


def symbol_search(store: MemoryStore, query: str, top_k: int = 10) -> list[SearchHit]:
    store._check_open()
    return _counted(store, "symbol", "symbol", lambda: _code.symbol_search(
        store.tracker, store.vectors, query, store.memories.embed_query(query), check_count("top_k", top_k)))


def code_keyword_search(store: MemoryStore, query: str, top_k: int = 10) -> list[SearchHit]:
    store._check_open()
    return _counted(store, "chunk", "code_keyword", lambda: _code.code_keyword_search(
        store.tracker, query, check_count("top_k", top_k)))


def _counted(store: MemoryStore, kind: str, mode: str, search: Callable[[], list[SearchHit]]) -> list[SearchHit]:
    """`search()` inside one query event of `kind` and `mode`, the event carrying its number of results."""
    with store.telemetry.measure("query", kind, mode=mode) as ev:
        hits = search()
        ev.extra["results"] = len(hits)
    return hits
