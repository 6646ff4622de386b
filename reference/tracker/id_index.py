"""Key hash -> memory id of every memory row, held in memory for ranked searches.

Rank fusion names ~200 hits per query by their memory id (to break ties by
id); one `SELECT ... WHERE key_hash IN (...)` per list cost ~0.9 ms at 100k
memories. This map answers from a dict instead: the same answer as
`MemoriesTable.ids_of` (tests compare them through writes and deletes).

Freshness, as in `FilterIndex` (it follows that index's notes): the first
lookup reads every (key_hash, id) once (~0.2 s at 100k); a committed write
notes its key hash as pending and the next lookup reads the pending rows; a
delete drops the key. A change it was not told of (a memories revision it
does not reflect: another process's, `memory_revision.py`) or a rollback
(`reset`) drops everything; the query that sees such a change asks SQL, and
the next one rebuilds (so a store another process writes between every query
never rebuilds per query). Inside an open transaction
the caller's uncommitted rows are not noted yet, so `ids_of` asks SQL there.
"""
from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence

from reference.tracker.codec import from_db
from reference.tracker.memories_table import MemoriesTable
from reference.tracker.memory_revision import Reflected


class IdIndex:
    """key hash -> memory id (see module docstring)."""

    def __init__(self, table: MemoriesTable) -> None:
        self.table = table
        self._lock = threading.RLock()
        self._reflected = Reflected()   # the revision applied (built) or last seen (not built)
        self.reset()

    # -- maintenance (FilterIndex forwards its notes here) -------------------------
    def reset(self) -> None:
        with self._lock:
            self._built = False
            self._ids: dict[int, str] = {}
            self._pending: dict[int, None] = {}
            self._reflected.forget()

    def note_write(self, key_hash: int, labels: object = None, rev: int | None = None) -> None:
        with self._lock:
            self._reflected.noted(rev)
            if self._built:
                self._pending[int(key_hash)] = None

    def note_delete(self, key_hash: int, rev: int | None = None) -> None:
        with self._lock:
            self._reflected.noted(rev)
            if self._built:
                self._ids.pop(int(key_hash), None)
                self._pending.pop(int(key_hash), None)

    # -- answering -----------------------------------------------------------------
    def ids_of(self, conn: sqlite3.Connection, key_hashes: Sequence[int]) -> dict[int, str]:
        """Key hash -> memory id, for the hashes that have a row."""
        if conn.in_transaction:
            return self.table.ids_of(conn, list(key_hashes))
        with self._lock:
            if not self._fresh(conn):
                return self.table.ids_of(conn, list(key_hashes))
            if self._pending:
                pending = list(self._pending)
                self._pending = {}
                self._ids.update(self.table.ids_of(conn, pending))
            get = self._ids.get
            return {h: mid for h in key_hashes if (mid := get(h)) is not None}

    def _fresh(self, conn: sqlite3.Connection) -> bool:
        """Build the map if needed; False (ask SQL) right after a change it was not told of, so that a
        store written by another process between every query never pays a rebuild per query."""
        seen = self._reflected.rev
        reflects, rev = self._reflected.check(conn)
        if seen is not None and not reflects:
            self.reset()
            self._reflected.built(rev)   # seen: the next query builds unless it changes again
            return False
        self._reflected.built(rev)
        if not self._built:
            self._ids = {from_db(kh): mid for kh, mid in conn.execute("SELECT key_hash, id FROM memories")}
            self._built = True
        return True
