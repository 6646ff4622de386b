"""`CodeIndex`: the code index part of a `MemoryStore` — indexing files, and code, symbol and chunk-keyword searches.

Each operation is one telemetry event. `MemoryStore` holds one `CodeIndex` (`store.code`) and
delegates its public code methods to it after checking the store is open; the searches embed
the query with the store's `Memories.embed_query` and rank with `reference/code/search.py`.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from reference.code import search as code_search
from reference.code.indexer import Indexer, IndexResult
from reference.memories.args import check_count
from reference.memories.memories import Memories
from reference.memories.record import SearchHit
from reference.store.telemetry import StoreTelemetry
from reference.tracker import Tracker
from reference.vectors import VectorCache


class CodeIndex:
    """Files, symbols and chunks of one store: indexing them and searching them."""

    def __init__(self, tracker: Tracker, vectors: VectorCache, memories: Memories, indexer: Indexer,
                 telemetry: StoreTelemetry) -> None:
        self.tracker, self.vectors, self.memories = tracker, vectors, memories
        self.indexer, self.telemetry = indexer, telemetry

    def index_file(self, path: str | Path, root: str | Path) -> IndexResult:
        with self.telemetry.measure("write", "file") as ev:
            result = self.indexer.index_file(path, root)
            ev.memory_id = result.file_keys[0] if result.file_keys else None
            ev.extra.update(symbols=result.symbols, chunks=result.chunks, unchanged=result.files_unchanged)
        return result

    def index_directory(self, root: str | Path, glob: str = "**/*.py") -> IndexResult:
        with self.telemetry.measure("write", "file", mode="directory") as ev:
            result = self.indexer.index_directory(root, glob)
            ev.extra.update(files=result.files_indexed, unchanged=result.files_unchanged, errors=len(result.errors))
        return result

    def register_file(self, path: str | Path, root: str | Path) -> dict:
        with self.telemetry.measure("write", "file", mode="register") as ev:
            row = self.indexer.register_file(path, root)
            ev.memory_id = row["key"]
        return row

    def code_search(self, query: str, top_k: int = 10) -> list[SearchHit]:
        """Cosine over chunk and file vectors."""
        return self._counted("chunk", "code", lambda: code_search.code_search(
            self.tracker, self.vectors, self.memories.embed_query(query), check_count("top_k", top_k)))

    def symbol_search(self, query: str, top_k: int = 10) -> list[SearchHit]:
        """Cosine over symbol vectors plus a name bonus (`reference/code/search.py`)."""
        return self._counted("symbol", "symbol", lambda: code_search.symbol_search(
            self.tracker, self.vectors, query, self.memories.embed_query(query), check_count("top_k", top_k)))

    def code_keyword_search(self, query: str, top_k: int = 10) -> list[SearchHit]:
        """FTS5 bm25 over chunk text."""
        return self._counted("chunk", "code_keyword", lambda: code_search.code_keyword_search(
            self.tracker, query, check_count("top_k", top_k)))

    def _counted(self, kind: str, mode: str, search: Callable[[], list[SearchHit]]) -> list[SearchHit]:
        """`search()` inside one query event of `kind` and `mode`, the event carrying its number of results."""
        with self.telemetry.measure("query", kind, mode=mode) as ev:
            hits = search()
            ev.extra["results"] = len(hits)
        return hits
