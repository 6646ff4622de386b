"""Row access for the project tables (schema in `schema.py`); every function takes a connection.

Kept apart from the layer so one transaction can span the memory write and
these rows. Names of settings in the tracker's `meta` table are here too.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass

META_DEFAULT = "project:default_branch"
META_CURRENT = "project:current_branch"
META_LAST_GC = "project:last_gc"
SEQ_DUPLICATES = "project_duplicates"   # tracker counter `seq:project_duplicates`
SEQ_PROMOTED = "project_promoted"


@dataclass(frozen=True)
class DocRow:
    memory_id: str
    doc_hash: str
    kind: str
    branch: str
    commit_sha: str | None
    session_id: str | None
    pending: bool
    created_at: float


_DOC_COLS = "memory_id, doc_hash, kind, branch, commit_sha, session_id, pending, created_at"


def _doc(row: tuple | None) -> DocRow | None:
    if row is None:
        return None
    return DocRow(row[0], row[1], row[2], row[3], row[4], row[5], bool(row[6]), row[7])


def get_meta(conn: sqlite3.Connection, name: str) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
    return row[0] if row else None


def set_meta(conn: sqlite3.Connection, name: str, value: str) -> None:
    conn.execute("INSERT OR REPLACE INTO meta(name, value) VALUES (?, ?)", (name, value))


def counter(conn: sqlite3.Connection, name: str) -> int:
    value = get_meta(conn, f"seq:{name}")
    return int(value) if value is not None else 0


# -- documents -----------------------------------------------------------------------
def doc_by_hash(conn: sqlite3.Connection, doc_hash: str) -> DocRow | None:
    return _doc(conn.execute(f"SELECT {_DOC_COLS} FROM project_docs WHERE doc_hash = ?", (doc_hash,)).fetchone())


def doc_by_id(conn: sqlite3.Connection, memory_id: str) -> DocRow | None:
    return _doc(conn.execute(f"SELECT {_DOC_COLS} FROM project_docs WHERE memory_id = ?", (memory_id,)).fetchone())


def insert_doc(conn: sqlite3.Connection, d: DocRow) -> None:
    conn.execute(f"INSERT INTO project_docs({_DOC_COLS}) VALUES (?,?,?,?,?,?,?,?)",
                 (d.memory_id, d.doc_hash, d.kind, d.branch, d.commit_sha, d.session_id, int(d.pending),
                  d.created_at))


def bind_doc(conn: sqlite3.Connection, memory_id: str, branch: str, commit_sha: str) -> None:
    conn.execute("UPDATE project_docs SET pending = 0, branch = ?, commit_sha = ? WHERE memory_id = ?",
                 (branch, commit_sha, memory_id))


def set_doc_branch(conn: sqlite3.Connection, memory_id: str, branch: str) -> None:
    conn.execute("UPDATE project_docs SET branch = ? WHERE memory_id = ?", (branch, memory_id))


def delete_doc(conn: sqlite3.Connection, memory_id: str) -> DocRow | None:
    row = doc_by_id(conn, memory_id)
    if row is not None:
        conn.execute("DELETE FROM project_docs WHERE memory_id = ?", (memory_id,))
        conn.execute("DELETE FROM project_commits WHERE memory_id = ?", (memory_id,))
    return row


def pending_count(conn: sqlite3.Connection) -> int:
    return conn.execute("SELECT count(*) FROM project_docs WHERE pending = 1").fetchone()[0]


def session_doc_count(conn: sqlite3.Connection, session_id: str) -> int:
    return conn.execute("SELECT count(*) FROM project_docs WHERE session_id = ?", (session_id,)).fetchone()[0]


def docs_outside(conn: sqlite3.Connection, live: list[str]) -> list[str]:
    """Memory ids of documents whose branch is not in `live`, oldest first."""
    marks = ",".join("?" * len(live))
    return [r[0] for r in conn.execute(
        f"SELECT memory_id FROM project_docs WHERE branch NOT IN ({marks}) ORDER BY created_at, memory_id", live)]


def doc_counts(conn: sqlite3.Connection) -> dict[str, int]:
    rows = conn.execute("SELECT kind, count(*) FROM project_docs GROUP BY kind").fetchall()
    return {k: n for k, n in rows}


def all_doc_ids(conn: sqlite3.Connection) -> list[str]:
    return [r[0] for r in conn.execute("SELECT memory_id FROM project_docs ORDER BY created_at, memory_id")]


# -- commits and branches ------------------------------------------------------------
def commit_known(conn: sqlite3.Connection, sha: str) -> bool:
    return conn.execute("SELECT 1 FROM project_commits WHERE sha = ?", (sha,)).fetchone() is not None


def upsert_commit(conn: sqlite3.Connection, sha: str, parent: str | None, branch: str, git_time: int,
                  memory_id: str | None) -> None:
    conn.execute("INSERT INTO project_commits(sha, parent_sha, branch, git_time, memory_id) VALUES (?,?,?,?,?) "
                 "ON CONFLICT(sha) DO UPDATE SET branch = excluded.branch, "
                 "memory_id = coalesce(excluded.memory_id, project_commits.memory_id)",
                 (sha, parent, branch, git_time, memory_id))


def commit_count(conn: sqlite3.Connection) -> int:
    return conn.execute("SELECT count(*) FROM project_commits").fetchone()[0]


def upsert_branch(conn: sqlite3.Connection, name: str, now: float, *, head: str | None = None,
                  base: str | None = None) -> None:
    """Create the branch (or revive a deleted one); set head and base when given."""
    conn.execute("INSERT INTO project_branches(name, head_sha, base_sha, created_at) VALUES (?,?,?,?) "
                 "ON CONFLICT(name) DO UPDATE SET deleted_at = NULL, "
                 "head_sha = coalesce(excluded.head_sha, project_branches.head_sha), "
                 "base_sha = coalesce(excluded.base_sha, project_branches.base_sha)",
                 (name, head, base, now))


def branch_head(conn: sqlite3.Connection, name: str) -> str | None:
    row = conn.execute("SELECT head_sha, base_sha FROM project_branches WHERE name = ?", (name,)).fetchone()
    return (row[0] or row[1]) if row else None


def live_branches(conn: sqlite3.Connection) -> list[str]:
    return [r[0] for r in conn.execute("SELECT name FROM project_branches WHERE deleted_at IS NULL ORDER BY name")]


def mark_deleted(conn: sqlite3.Connection, names: list[str], now: float) -> None:
    conn.executemany("UPDATE project_branches SET deleted_at = ? WHERE name = ?", [(now, n) for n in names])
    conn.executemany("DELETE FROM project_commits WHERE branch = ?", [(n,) for n in names])


def deleted_count(conn: sqlite3.Connection) -> int:
    return conn.execute("SELECT count(*) FROM project_branches WHERE deleted_at IS NOT NULL").fetchone()[0]
