"""`fts-baseline`: memories in SQLite with FTS5, ranked by bm25 alone (no vectors).

Search: the query's words are quoted and ORed (`reference.tracker.fts_match`),
so FTS5 syntax in user text is taken literally and a natural-language query
matches any of its words; score = -bm25 (higher is better), ties by id.
With a filter (task, context, insights, tags, metadata) the answer is the
filtered memories: bm25 matches first, then the other filtered memories with
score 0.0 (by id) up to `top_k`; the filter picks the set and the query only
orders it. Without a filter only bm25 matches are returned. No query (None or
blank): the filtered memories newest first, score 0.0.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from reference.clock import Clock
from reference.errors import CorruptData
from reference.telemetry import TelemetrySink
from reference.tracker import MemoryFilter, fts_match

from bench.backends.capabilities import Capability as C
from bench.backends.fts_baseline.memory_table import MemoryTable
from bench.backends.fts_baseline.records import (
    MemoryInput, check_count, check_id, check_query, dir_bytes, is_empty, make_filter, new_memory_id,
    validate_memory,
)
from bench.backends.interface import Backend, Hit


def open_table(conn: Any, path: Path, errors: tuple[type[BaseException], ...]) -> MemoryTable:
    """A `MemoryTable` on `conn` with its schema in place; an unreadable file is `CorruptData`."""
    table = MemoryTable(conn, str(path))
    try:
        table.create()
    except errors as exc:
        conn.close()
        raise CorruptData(f"{path}: not a readable SQLite database ({exc})") from exc
    return table


def filtered_search(table: MemoryTable, ranked: list[tuple[str, float]], flt: MemoryFilter,
                    top_k: int) -> list[Hit]:
    """`ranked` hits, then (only under a filter) the other filtered memories at score 0.0, by id."""
    hits = [Hit(mid, score) for mid, score in ranked[:top_k]]
    if not is_empty(flt) and len(hits) < top_k:
        seen = {h.id for h in hits}
        hits += [Hit(mid, 0.0) for mid in table.filtered_ids(flt, top_k - len(hits), seen)]
    return hits


class FtsBaselineBackend(Backend):
    """SQLite FTS5 + bm25 only: the keyword baseline every ranker should beat.

    Subclasses over the same table (sqlite-vec) override the hooks `_connect`,
    `_opened`, `_inserted`, `_deleted` and `_rank`.
    """

    name = "fts-baseline"
    deterministic = True   # no wall clock or randomness in any answer: gated exactly
    capabilities = frozenset({
        C.MEMORY_WRITE, C.MEMORY_GET, C.MEMORY_LIST, C.MEMORY_SEARCH, C.MEMORY_FILTERS, C.KEYWORD_SEARCH,
        C.MEMORY_DELETE, C.METADATA_FILTERS,
    })
    db_name = "fts_baseline.db"

    def open(self, data_dir: Path, clock: Clock, telemetry: TelemetrySink) -> None:
        self.data_dir = Path(data_dir)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.clock = clock
        path = self.data_dir / self.db_name
        self.conn, errors = self._connect(path)
        self.table = open_table(self.conn, path, errors)
        self._opened(path)

    def close(self) -> None:
        self.conn.close()

    def storage_bytes(self) -> int:
        return dir_bytes(self.data_dir)

    # hooks ------------------------------------------------------------------
    def _connect(self, path: Path) -> tuple[Any, tuple[type[BaseException], ...]]:
        """An autocommit connection and the exceptions that mean "not a readable database"."""
        return sqlite3.connect(path, isolation_level=None), (sqlite3.DatabaseError,)

    def _opened(self, path: Path) -> None:
        """Called once the memories table is ready."""

    def _inserted(self, seq: int, inp: MemoryInput) -> None:
        """Called inside the write transaction after the row went in."""

    def _deleted(self, seq: int) -> None:
        """Called inside the delete transaction after the row went."""

    def _rank(self, query: str, flt: MemoryFilter, top_k: int) -> list[tuple[str, float]]:
        """(id, score) best first among the filtered memories."""
        match = fts_match(query)
        return self.table.fts(match, flt, top_k) if match else []

    # memory -----------------------------------------------------------------
    def write_memory(self, text, task=None, insights=None, context=None, symbol_keys=None, tags=None,
                     metadata=None) -> str:
        inp = validate_memory(text, task, insights, context, symbol_keys, tags, metadata)
        now = self.clock.now()
        with self.table.tx():
            mid = new_memory_id(now, inp.text, self.table.taken)
            self._inserted(self.table.insert(mid, inp, now), inp)
        return mid

    def get_memory(self, memory_id: str) -> dict[str, Any] | None:
        return self.table.get(check_id(memory_id))

    def list_memories(self, task=None, context=None, limit=50, offset=0) -> list[dict[str, Any]]:
        flt = make_filter(task=task, context=context)
        return self.table.list(flt, check_count("limit", limit), check_count("offset", offset))

    def search_memories(self, query=None, task=None, context=None, insights=None, tags=None, top_k=10,
                        where_metadata=None) -> list[Hit]:
        flt = make_filter(task, context, insights, tags, where_metadata)
        top_k, query = check_count("top_k", top_k), check_query(query)
        if query is None:
            return [Hit(r["id"], 0.0) for r in self.table.list(flt, top_k, 0)]
        return filtered_search(self.table, self._rank(query, flt, top_k), flt, top_k)

    def keyword_search(self, query: str, top_k: int = 10) -> list[Hit]:
        top_k, match = check_count("top_k", top_k), fts_match(check_query(query) or "")
        return [Hit(mid, s) for mid, s in self.table.fts(match, MemoryFilter(), top_k)] if match else []

    def delete_memory(self, memory_id: str) -> bool:
        mid = check_id(memory_id)
        with self.table.tx():
            seq = self.table.delete(mid)
            if seq is not None:
                self._deleted(seq)
        return seq is not None
