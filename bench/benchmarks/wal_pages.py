"""WAL pages a write commits to `tracker.db`: the SQLite side of a write's cost, counted rather than timed.

    pages = wal_frames(store, lambda: store.write_memory("..."))

Every page a transaction changes is appended to the write-ahead log once per commit (and later
copied back by a checkpoint), so the count is a machine-independent measure of a write's I/O.
The WAL is checkpointed and emptied first and auto-checkpoints are off while `write` runs (so no
frame is folded back mid-count); SQLite's default (1,000 pages) is restored afterwards.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

AUTO_CHECKPOINT = 1000   # SQLite's default, the store's setting


def wal_frames(store: Any, write: Callable[[], Any]) -> int:
    """Frames (pages) appended to the WAL by `write()`, run on this thread's connection."""
    conn = store.tracker.conn()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("PRAGMA wal_autocheckpoint=0")
    try:
        write()
        busy, frames, _ = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    finally:
        conn.execute(f"PRAGMA wal_autocheckpoint={AUTO_CHECKPOINT}")
    if busy:
        raise RuntimeError("another connection held the WAL: the frame count is not this write's alone")
    return frames
