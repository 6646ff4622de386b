"""`Tracker`: the `tracker.db` SQLite database (WAL, busy_timeout, versioned schema).

Holds the key registry, files/symbols/chunks, memories and their FTS5
indexes. Each thread gets its own connection; writes that must land together
go in `with tracker.tx() as conn:`. Table access lives in `KeysTable`,
`CodeTables` and `MemoriesTable`, which take a connection, so one transaction
can span several tables.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

from reference.errors import corrupt
from reference.keys import hash64
from reference.memories.record import MemoryEntry
from reference.tracker.code_tables import CodeTables
from reference.tracker.connections import Connections
from reference.tracker.keys_table import KeysTable
from reference.tracker.memories_table import MemoriesTable
from reference.tracker.migrations import LATEST, migrate, schema_version
from reference.tracker.open_check import check_on_open
from reference.tracker.sqlite_errors import sqlite_errors


# a counter moves in place (an upsert keeps the row's rowid): one table page a write, where a REPLACE
# (delete + insert under a new rowid) also rewrote a page of meta's name index
SET_SEQ = "INSERT INTO meta(name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value"


class Tracker:
    """The tracker database at `path`, migrated to the latest schema and checked on open (open_check.py)."""

    def __init__(self, path: str | Path, *, hash_fn: Callable[[str], int] = hash64,
                 busy_timeout_ms: int = 10_000, check: bool = True) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.hash_fn = hash_fn
        self._conns = Connections(self.path, busy_timeout_ms)
        try:
            with sqlite_errors(self.path):
                self.migrated_from, _ = migrate(self._conns.get(), str(self.path), LATEST)
                # see open_check.py; `check=False` only for tools that check the file themselves
                damaged = check_on_open(self._conns.get(), str(self.path)) if check else ()
        except BaseException:
            self._conns.close()
            raise
        # memory rows whose checksum failed on open: the store still opens (issue 25), and
        # `MemoriesTable` refuses the reads that could involve them
        self.damaged = damaged
        self.keys = KeysTable(hash_fn, str(self.path))
        self.code = CodeTables(str(self.path))
        self.memories = MemoriesTable(str(self.path), damaged)

    def conn(self) -> sqlite3.Connection:
        """This thread's connection (autocommit outside `tx()`)."""
        return self._conns.get()

    def tx(self, *, light: bool = False) -> AbstractContextManager[sqlite3.Connection]:
        """`BEGIN IMMEDIATE` ... `COMMIT` on this thread's connection (rolls back on error); nested calls join
        the outer one. `Connections.tx` itself, not a generator around it (a write enters three).
        `light=True` for a read's bookkeeping: its commit leaves the WAL checkpoint to writes (`Connections.tx`)."""
        return self._conns.tx(light=light)

    # -- conveniences over the tables -------------------------------------------------
    def schema_version(self) -> int:
        return schema_version(self.conn())

    def register_key(self, key: str, kind: str) -> int:
        with self.tx() as conn:
            return self.keys.register(conn, key, kind)

    def resolve_type(self, key_hash: int) -> str | None:
        """The entity type ("file", "symbol", "chunk", "memory") of a registered hash, else None."""
        return self.keys.resolve_type(self.conn(), key_hash)

    def get_memory_by_key(self, key_hash: int) -> MemoryEntry | None:
        return self.memories.get(self.conn(), key_hash)

    def next_seq(self, conn: sqlite3.Connection, name: str) -> int:
        """Increment and return the named counter; call inside `tx()` so it is atomic."""
        row = conn.execute("SELECT value FROM meta WHERE name = ?", (f"seq:{name}",)).fetchone()
        try:
            value = int(row[0]) + 1 if row else 1
        except ValueError:
            raise corrupt(self.path, f"meta row 'seq:{name}'", f"counter {str(row[0])[:20]!r} is not a number") from None
        conn.execute(SET_SEQ, (f"seq:{name}", str(value)))
        return value

    def get_meta(self, name: str) -> str | None:
        row = self.conn().execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
        return row[0] if row else None

    def set_meta(self, name: str, value: str) -> None:
        with self.tx() as conn:
            conn.execute("INSERT OR REPLACE INTO meta(name, value) VALUES (?, ?)", (name, value))

    def counts(self) -> dict[str, int]:
        conn = self.conn()
        return {
            "keys": self.keys.count(conn),
            "memories": self.memories.count(conn),
            "files": self.code.count(conn, "files"),
            "symbols": self.code.count(conn, "symbols"),
            "chunks": self.code.count(conn, "chunks"),
        }

    def checkpoint(self) -> None:
        """Fold the WAL back into the main file (used by close and stats)."""
        self.conn().execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        self._conns.close()

    def __enter__(self) -> "Tracker":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
