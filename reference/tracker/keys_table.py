"""The `keys` table: every canonical key ever issued, for collision detection and type lookup.

Rows are never removed (a deleted memory keeps its row), so an id is never
re-issued to a different record and `resolve_type` still answers for it.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable

from reference.errors import KeyCollision, corrupt
from reference.tracker.codec import from_db, to_db
from reference.tracker.multirow import insert_rows

# The namespace prefix of a canonical key -> the entity type recorded in `keys.kind`.
KIND_OF_NAMESPACE = {"file": "file", "sym": "symbol", "chunk": "chunk", "mem": "memory"}


class KeysTable:
    """Key registry over a connection; `hash_fn` is injectable so tests can force a collision.

    Rows are self-checking: every read confirms `hash_fn(key) == key_hash` and
    that `kind` is the key's namespace's, raising `CorruptData` naming `path`.
    """

    def __init__(self, hash_fn: Callable[[str], int], path: str = "tracker.db") -> None:
        self.hash_fn = hash_fn
        self.path = path

    def _check(self, h: int, key: str, kind: str | None = None) -> None:
        ns = key.split(":", 1)[0] if isinstance(key, str) else None
        if not isinstance(key, str) or self.hash_fn(key) != h or (
                kind is not None and KIND_OF_NAMESPACE.get(ns) not in (None, kind)):
            raise corrupt(self.path, f"keys row {h:#018x}", f"key {str(key)[:60]!r} / kind {kind!r} do not match "
                          "their hash (the row was damaged on disk)")

    def register(self, conn: sqlite3.Connection, key: str, kind: str) -> int:
        """Record `key` (idempotent) and return its hash; `KeyCollision` if another key holds the hash."""
        h = self.hash_fn(key)
        row = conn.execute("SELECT key, kind FROM keys WHERE key_hash = ?", (to_db(h),)).fetchone()
        if row is not None:
            if row[0] != key:
                raise KeyCollision(f"keys {row[0]!r} and {key!r} both hash to {h:#018x}; refusing to store {key!r}")
            return h
        conn.execute("INSERT INTO keys(key_hash, key, kind) VALUES (?, ?, ?)", (to_db(h), key, kind))
        return h

    def any_taken(self, conn: sqlite3.Connection, keys: list[str], hashes: list[int]) -> bool:
        """True if any key (with its hash, `hashes[i] == hash_fn(keys[i])`) is registered or its hash held."""
        for i in range(0, len(keys), 400):
            ks, hs = keys[i: i + 400], [to_db(h) for h in hashes[i: i + 400]]
            if conn.execute(f"SELECT 1 FROM keys WHERE key_hash IN ({','.join('?' * len(hs))}) "
                            f"OR key IN ({','.join('?' * len(ks))}) LIMIT 1", (*hs, *ks)).fetchone() is not None:
                return True
        return False

    def register_new(self, conn: sqlite3.Connection, keys: list[str], hashes: list[int], kind: str) -> None:
        """Record keys that `any_taken` just found free (with their hashes), in one statement."""
        insert_rows(conn, "INSERT INTO keys(key_hash, key, kind) VALUES", 3,
                    [(to_db(h), k, kind) for k, h in zip(keys, hashes)])

    def is_taken(self, conn: sqlite3.Connection, key: str) -> bool:
        """True if `key` is registered or its hash is held by another key."""
        h = self.hash_fn(key)
        return conn.execute("SELECT 1 FROM keys WHERE key_hash = ? OR key = ?", (to_db(h), key)).fetchone() is not None

    def resolve_type(self, conn: sqlite3.Connection, h: int) -> str | None:
        row = conn.execute("SELECT key, kind FROM keys WHERE key_hash = ?", (to_db(h),)).fetchone()
        if row is None:
            return None
        self._check(h, row[0], row[1])
        return row[1]

    def get_key(self, conn: sqlite3.Connection, h: int) -> str | None:
        row = conn.execute("SELECT key, kind FROM keys WHERE key_hash = ?", (to_db(h),)).fetchone()
        if row is None:
            return None
        self._check(h, row[0], row[1])
        return row[0]

    def lookup(self, conn: sqlite3.Connection, hashes: Iterable[int]) -> dict[int, tuple[str, str]]:
        """Map each known hash to (key, kind); unknown hashes are left out."""
        out: dict[int, tuple[str, str]] = {}
        hs = [to_db(h) for h in hashes]
        for i in range(0, len(hs), 500):
            part = hs[i: i + 500]
            q = f"SELECT key_hash, key, kind FROM keys WHERE key_hash IN ({','.join('?' * len(part))})"
            for kh, key, kind in conn.execute(q, part):
                self._check(from_db(kh), key, kind)
                out[from_db(kh)] = (key, kind)
        return out

    def count(self, conn: sqlite3.Connection) -> int:
        return conn.execute("SELECT count(*) FROM keys").fetchone()[0]
