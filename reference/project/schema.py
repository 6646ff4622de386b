"""The seed 002 tables in `tracker.db`: branches, commits and the documents of the project layer.

`project_schema` is a tracker migration (v5; registered in order by
`reference/schema_steps.py`); every statement is
`IF NOT EXISTS`, so `ensure_schema` can run it on a tracker created before
the migration existed. Columns are documented in reference/project/README.md.
"""
from __future__ import annotations

from reference.layer_tables import ensure_tables, has_tables

import sqlite3
from typing import Any

TABLES = ("project_branches", "project_commits", "project_docs")

_STATEMENTS = (
    """CREATE TABLE IF NOT EXISTS project_branches (
        name TEXT PRIMARY KEY,
        head_sha TEXT,
        base_sha TEXT,
        created_at REAL NOT NULL,
        deleted_at REAL)""",
    """CREATE TABLE IF NOT EXISTS project_commits (
        sha TEXT PRIMARY KEY,
        parent_sha TEXT,
        branch TEXT NOT NULL,
        git_time INTEGER NOT NULL,
        memory_id TEXT)""",
    "CREATE INDEX IF NOT EXISTS idx_project_commits_branch ON project_commits(branch)",
    """CREATE TABLE IF NOT EXISTS project_docs (
        memory_id TEXT PRIMARY KEY,
        doc_hash TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (kind IN ('commit', 'session')),
        branch TEXT NOT NULL,
        commit_sha TEXT,
        session_id TEXT,
        pending INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS idx_project_docs_branch ON project_docs(branch)",
    "CREATE INDEX IF NOT EXISTS idx_project_docs_session ON project_docs(session_id)",
    "CREATE INDEX IF NOT EXISTS idx_project_docs_pending ON project_docs(pending) WHERE pending = 1",
)


def project_schema(conn: Any) -> None:
    """Tracker migration: create the seed 002 tables (idempotent)."""
    for stmt in _STATEMENTS:
        conn.execute(stmt)


def has_schema(conn: sqlite3.Connection) -> bool:
    return has_tables(conn, TABLES)


def ensure_schema(tracker: Any) -> bool:
    """Create the tables if this tracker lacks them; True when something was created."""
    return ensure_tables(tracker, TABLES, project_schema)
