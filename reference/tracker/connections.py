"""Per-thread SQLite connections to `tracker.db` and explicit transactions.

The MCP server runs tools on worker threads and a sqlite3 connection must not
be shared between threads mid-transaction, so each thread gets its own
connection (`threading.local`). All connections are in autocommit mode; `tx()`
opens `BEGIN IMMEDIATE` (the write lock is taken up front, so two writers
never deadlock upgrading a read lock) and nests by counting depth.

Checkpoints: SQLite copies the WAL back into `tracker.db` in whichever commit
finds the WAL past `wal_autocheckpoint` pages (4-5 ms at 100k memories). A search
that records accesses commits too, and paid that copy once or twice in 90
oracle-hybrid searches at 100k (its slowest query each time). `tx(light=True)` marks such bookkeeping: its commit checkpoints
only past `LIGHT_CHECKPOINT_PAGES`, leaving the copy to the next write (at
`WRITE_CHECKPOINT_PAGES`, SQLite's default, as before). Writes keep their
power-loss window; a run of searches with no write between may leave up to
`LIGHT_CHECKPOINT_PAGES` of access counts unsynced (reference/README.md, "Writes").
"""
from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from reference.errors import StoreError

WRITE_CHECKPOINT_PAGES = 1_000   # SQLite's default auto-checkpoint: a write's power-loss window
LIGHT_CHECKPOINT_PAGES = 4_000   # a bookkeeping commit checkpoints only past this (a read-only run stays bounded)


class TrackerClosed(StoreError):
    """The tracker was closed; open the store again."""


class Connections:
    """One WAL-mode connection per thread, all closed together by `close()`."""

    def __init__(self, path: str | Path, busy_timeout_ms: int = 10_000) -> None:
        self.path = str(path)
        self.busy_timeout_ms = busy_timeout_ms
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._closed = False

    def get(self) -> sqlite3.Connection:
        """This thread's connection (opened on first use)."""
        conn = getattr(self._local, "conn", None)
        if conn is None:
            if self._closed:
                raise TrackerClosed(f"{self.path}: tracker is closed")
            conn = self._open()
            self._local.conn = conn
            self._local.depth = 0
            with self._lock:
                self._all.append(conn)
        return conn

    def _open(self) -> sqlite3.Connection:
        conn = sqlite3.connect(
            self.path, isolation_level=None, check_same_thread=False, timeout=self.busy_timeout_ms / 1000
        )
        conn.execute(f"PRAGMA busy_timeout={int(self.busy_timeout_ms)}")
        conn.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a commit survives a process crash; only an OS crash may lose the last ones.
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute(f"PRAGMA wal_autocheckpoint={WRITE_CHECKPOINT_PAGES}")
        return conn

    @contextmanager
    def tx(self, *, light: bool = False) -> Iterator[sqlite3.Connection]:
        """A write transaction on this thread's connection; nested calls join the outer one.

        `light`: bookkeeping a read makes (access counts): its commit leaves the WAL checkpoint to the
        next write (module doc). A transaction is light only if every call that joined it was."""
        conn = self.get()
        depth = self._local.depth
        if depth == 0:
            conn.execute("BEGIN IMMEDIATE")
            self._local.light = light
        elif not light:
            self._local.light = False
        self._local.depth = depth + 1
        try:
            yield conn
            if depth == 0:
                self._commit(conn, self._local.light)
        except BaseException:
            if depth == 0 and conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        finally:
            self._local.depth = depth

    @staticmethod
    def _commit(conn: sqlite3.Connection, light: bool) -> None:
        if not light:
            conn.execute("COMMIT")
            return
        conn.execute(f"PRAGMA wal_autocheckpoint={LIGHT_CHECKPOINT_PAGES}")
        try:
            conn.execute("COMMIT")
        finally:
            conn.execute(f"PRAGMA wal_autocheckpoint={WRITE_CHECKPOINT_PAGES}")

    def close(self) -> None:
        with self._lock:
            self._closed = True
            conns, self._all = self._all, []
        for c in conns:
            c.close()
        self._local = threading.local()
