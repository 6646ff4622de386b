"""Per-thread SQLite connections to `tracker.db` and explicit transactions.

The MCP server runs tools on worker threads and a sqlite3 connection must not
be shared between threads mid-transaction, so each thread gets its own
connection (`threading.local`). All connections are in autocommit mode; `tx()`
opens `BEGIN IMMEDIATE` (the write lock is taken up front, so two writers
never deadlock upgrading a read lock) and nests by counting depth.
"""
from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from reference.errors import StoreError


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
        return conn

    @contextmanager
    def tx(self) -> Iterator[sqlite3.Connection]:
        """A write transaction on this thread's connection; nested calls join the outer one."""
        conn = self.get()
        depth = self._local.depth
        if depth == 0:
            conn.execute("BEGIN IMMEDIATE")
        self._local.depth = depth + 1
        try:
            yield conn
            if depth == 0:
                conn.execute("COMMIT")
        except BaseException:
            if depth == 0 and conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        finally:
            self._local.depth = depth

    def close(self) -> None:
        with self._lock:
            self._closed = True
            conns, self._all = self._all, []
        for c in conns:
            c.close()
        self._local = threading.local()
