"""The Memory Lane tables in `tracker.db`, added by one migration (v4, registered by `reference/schema_steps.py`).

This module imports nothing from the store: the `reference` package imports it
(through `schema_steps`) while it initialises.
"""
from __future__ import annotations

import sqlite3


def lane_v1(conn: sqlite3.Connection) -> None:
    """`lane_feedback` (one row per signal) and `lane_recalls` (one row per session and memory)."""
    conn.executescript(
        """
        CREATE TABLE lane_feedback (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            memory_id TEXT NOT NULL,
            signal TEXT NOT NULL CHECK (signal IN ('helpful', 'harmful')),
            session_id TEXT,
            created_at REAL NOT NULL);
        CREATE INDEX idx_lane_feedback_memory ON lane_feedback(memory_id);
        CREATE TABLE lane_recalls (
            session_id TEXT NOT NULL,
            memory_id TEXT NOT NULL,
            recalled_at REAL NOT NULL,
            query TEXT,
            PRIMARY KEY (session_id, memory_id));
        CREATE INDEX idx_lane_recalls_memory ON lane_recalls(memory_id);
        """
    )
