"""Session recall tracking (seed 004 Phase 5): which memories were injected in which session.

A (session, memory) pair is recorded once, at the first injection; later
injections and session-aware searches in that session leave the memory out,
so it never enters the agent's context twice.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable

from reference.lane.errors import LaneError


def check_session(session_id: object) -> str:
    if not isinstance(session_id, str) or not session_id.strip():
        raise LaneError(f"session_id must be a non-empty string, got {session_id!r}")
    return session_id


class RecallTable:
    """Rows of `lane_recalls`; every method takes the caller's connection.

    `redact` (the store's redactor) is applied to the session id and the query before
    they are stored or looked up, so a secret in either never reaches the disk and a
    session keeps one key.
    """

    def __init__(self, redact: Callable[[str], str] = lambda text: text) -> None:
        self._redact = redact

    def _session(self, session_id: object) -> str:
        return self._redact(check_session(session_id))

    def add(self, conn: sqlite3.Connection, session_id: str, memory_ids: Iterable[str], recalled_at: float,
            query: str | None) -> None:
        session = self._session(session_id)
        stored_query = self._redact(query) if isinstance(query, str) else None
        conn.executemany(
            "INSERT OR IGNORE INTO lane_recalls(session_id, memory_id, recalled_at, query) VALUES (?,?,?,?)",
            [(session, m, recalled_at, stored_query) for m in memory_ids])

    def recalled(self, conn: sqlite3.Connection, session_id: str) -> set[str]:
        rows = conn.execute("SELECT memory_id FROM lane_recalls WHERE session_id = ?", (self._session(session_id),))
        return {r[0] for r in rows}

    def history(self, conn: sqlite3.Connection, session_id: str) -> list[tuple[str, float]]:
        """(memory id, time first injected) in injection order."""
        rows = conn.execute("SELECT memory_id, recalled_at FROM lane_recalls WHERE session_id = ? "
                            "ORDER BY recalled_at, rowid", (self._session(session_id),))
        return [(r[0], r[1]) for r in rows]

    def forget(self, conn: sqlite3.Connection, memory_id: str) -> None:
        conn.execute("DELETE FROM lane_recalls WHERE memory_id = ?", (memory_id,))
