"""`MemoryIds`: key hash -> memory id of stored memories, kept across writes so a write's neighbours need no query.

The relationship rules of a write name its vector neighbours by memory id, and the vector
index gives key hashes. A memory's key hash never changes and an id is never issued twice,
so a pair read once stays true for as long as the memory exists. What can end that:
- a delete: the knowledge layer's delete listener calls `clear()`;
- a commit by another connection (another process, thread or store on the same file, which
  may have deleted memories): seen as a change of `PRAGMA data_version`, which clears the map;
- a rolled-back write: only rows committed before the current transaction are remembered
  (`lookup`'s `pending` names the hashes written in it, which are read but not kept).
The map holds at most `MAX_IDS` pairs (then it starts again empty).
"""
from __future__ import annotations

import sqlite3

from reference.tracker.codec import from_db, to_db

MAX_IDS = 500_000   # ~60 MB at most; a store past it reads the rest per write, as without the map


class MemoryIds:
    """Key hash -> id of memories known to exist (see the module docstring for what keeps it true)."""

    def __init__(self) -> None:
        self._ids: dict[int, str] = {}
        self._conn: sqlite3.Connection | None = None   # the connection whose data_version was read last
        self._version = -1

    def clear(self) -> None:
        self._ids.clear()

    def lookup(self, conn: sqlite3.Connection, key_hashes: list[int], pending: set[int]) -> dict[int, str]:
        """The id of each of `key_hashes` that names a stored memory (absent: no such memory).

        `pending`: hashes of memories written in the open transaction (read, never kept)."""
        version = conn.execute("PRAGMA data_version").fetchone()[0]
        if conn is not self._conn or version != self._version:
            self._ids.clear()
            self._conn, self._version = conn, version
        known = self._ids
        out = {h: known[h] for h in key_hashes if h in known}
        missing = [h for h in key_hashes if h not in out]
        for i in range(0, len(missing), 500):
            part = [to_db(h) for h in missing[i: i + 500]]
            for kh, mid in conn.execute(
                    f"SELECT key_hash, id FROM memories WHERE key_hash IN ({','.join('?' * len(part))})", part):
                out[from_db(kh)] = mid
        if len(known) + len(missing) > MAX_IDS:
            known.clear()
        known.update((h, out[h]) for h in missing if h in out and h not in pending)
        return out
