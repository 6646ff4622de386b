"""A counter in `meta` that every change to the memories table moves, in the change's own transaction.

    rev = bump(conn)        # inside the transaction that inserts, updates or deletes memories
    last = bump(conn, n)    # a batch of n memories: moved as n single writes would move it
    current(conn)           # the revision this connection sees
    bump(conn, name=UPDATES); current(conn, UPDATES)   # a second counter, moved by metadata updates only
    with snapshot(conn):    # the revision and the reads after it, from one state of the table

The store keeps in-memory indexes over the memories table (`FilterIndex`, `IdIndex`, the keyword
postings). The writer updates them itself after a change; what it cannot report is a change made
through another store object (another process). `PRAGMA data_version` cannot tell the two apart:
it moves for a connection on every commit made through any other connection, including this
process's own other threads (the MCP server runs each tool on a worker thread with its own
connection), so an index checked that way rebuilt itself after every write made on another thread:
a whole-table scan per filtered search (60-90 ms at 5,000 memories). The revision moves only when
memories change, and an index that applied revision r's change knows it reflects r, whichever
connection made it (`Reflected`).

`UPDATES` counts metadata updates alone (each also moves the revision): an index that derives
something from metadata and finds the revision moved by another process reads the stored rows'
record offsets only when this counter moved too (the lexical layer at 100k memories: ~140-150 ms
with the offsets, ~80-100 with the ids alone).

A change made to `tracker.db` by something other than this code (raw SQL) does not move the
counter: the indexes follow changes made through the store, from any thread or process.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

NAME = "rev:memories"
UPDATES = "rev:memories:updates"


def bump(conn: sqlite3.Connection, by: int = 1, name: str = NAME) -> int:
    """Move the revision (or the counter `name`) on by `by` (a batch: one per memory, so a batch stores
    what the same writes one by one store) in the caller's transaction; the new value."""
    row = conn.execute("INSERT INTO meta(name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE "
                       "SET value = CAST(value AS INTEGER) + ? RETURNING value", (name, str(by), by)).fetchone()
    return int(row[0])


def current(conn: sqlite3.Connection, name: str = NAME) -> int:
    """The revision (or the counter `name`) this connection sees (0 before the first change)."""
    row = conn.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
    return int(row[0]) if row else 0


@contextmanager
def snapshot(conn: sqlite3.Connection) -> Iterator[None]:
    """Hold one read snapshot of the database on `conn` for the block (a deferred transaction, rolled back
    after; joined as it is when `conn` is already in a transaction).

    An index that checks `current` and then reads rows must read them from the state it checked: a
    commit landing in between (another thread's, whose note waits on the index's lock) would otherwise
    be in the rows read but not in what the index already holds, and an answer built from both could
    match a memory in no state it ever had."""
    if conn.in_transaction:
        yield
        return
    conn.execute("BEGIN")
    try:
        yield
    finally:
        conn.execute("ROLLBACK")


class Reflected:
    """The revision an in-memory index reflects (`rev`; None: none yet, or a change was missed)."""

    def __init__(self) -> None:
        self.rev: int | None = None

    def check(self, conn: sqlite3.Connection) -> tuple[bool, int]:
        """(whether the index reflects the connection's revision, that revision). Read it before a
        rebuild's scan: a change landing in between then shows at the next check."""
        now = current(conn)
        return now == self.rev, now

    def built(self, rev: int) -> None:
        self.rev = rev

    def noted(self, rev: int | None) -> None:
        """The change at `rev` was applied: the index now reflects `rev` if it reflected the revision
        before (a batch notes its memories at consecutive revisions); after a gap, nothing."""
        if rev is None or self.rev is None or rev != self.rev + 1:
            self.rev = None
        else:
            self.rev = rev

    def forget(self) -> None:
        self.rev = None
