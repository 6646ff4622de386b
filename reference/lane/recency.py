"""Write order of the store's memories, for a recency prior: how many memories came after each one.

`ago(keys)` = (the newest memory's rowid) - (the key's rowid) in the tracker's
`memories` table, i.e. how many memories were written after it (deleted ones
still count: a gap is cheaper than a recount and shifts every older memory
alike). The map key hash -> rowid is cached and read incrementally (only rows
above the last rowid seen); a delete through this store (its delete listener)
or a count that disagrees with the map (another process deleted and wrote)
re-reads it whole, since SQLite may then reuse a rowid.
"""
from __future__ import annotations

import threading
from typing import Any

import numpy as np

from reference.tracker.codec import from_db


class WriteOrder:
    """key hash -> rowid of a store's memories, kept in step with the table (see module docstring)."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._rowid: dict[int, int] = {}
        self._last = 0
        store.add_delete_listener(self._forget)

    def _forget(self, memory_id: str) -> None:
        with self._lock:
            self._rowid, self._last = {}, 0

    def _refresh(self) -> None:
        conn = self.store.tracker.conn()
        newest = conn.execute("SELECT coalesce(max(rowid), 0) FROM memories").fetchone()[0]
        count = int(self.store.memories.filter_index.labelled_many(conn, [("all",)])[0].size)   # no table scan
        if newest < self._last or count < len(self._rowid):
            self._rowid, self._last = {}, 0
        if newest > self._last:
            for key, rowid in conn.execute("SELECT key_hash, rowid FROM memories WHERE rowid > ?", (self._last,)):
                self._rowid[from_db(int(key))] = int(rowid)
            self._last = newest
        if len(self._rowid) != count:   # rows replaced below the mark: read everything again
            self._rowid = {from_db(int(k)): int(r)
                           for k, r in conn.execute("SELECT key_hash, rowid FROM memories")}

    def ago(self, keys: np.ndarray) -> np.ndarray:
        """Per key hash, how many memories were written after it (the newest: 0; unknown: the oldest)."""
        with self._lock:
            self._refresh()
            get = self._rowid.get
            return self._last - np.fromiter((get(k, 0) for k in keys.tolist()), dtype=np.float64, count=len(keys))
