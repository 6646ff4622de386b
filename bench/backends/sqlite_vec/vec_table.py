"""The apsw connection with sqlite-vec loaded, and the `vec0` table of memory vectors.

Python's own sqlite3 is often built without `enable_load_extension` (this
machine's is), so the connection is apsw's, which bundles its own SQLite with
FTS5 and JSON and can load the extension. Vectors are float32 little-endian
blobs in `memories_vec` (rowid = `memories.seq`), compared by cosine distance.
A zero vector (a text without words) is not stored: it has no direction.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import numpy as np

from reference.errors import StoreError

EXTRA = "pip install 'codemem-bench[sqlite-vec]'  (apsw and sqlite-vec)"
MAX_K = 4096  # sqlite-vec's limit on k in one KNN query


class EmbedderMismatch(StoreError):
    """The store's vectors came from another embedder than the one asked for."""


def _missing(module: str) -> bool:
    if module in sys.modules:
        return sys.modules[module] is None
    return importlib.util.find_spec(module) is None


def require_extra() -> None:
    """Raise ImportError naming the extra when apsw or sqlite-vec is not installed."""
    missing = [m for m in ("apsw", "sqlite_vec") if _missing(m)]
    if missing:
        raise ImportError(f"backend 'sqlite-vec' needs {' and '.join(missing)}: {EXTRA}")


def connect(path: Path) -> Any:
    """An autocommit apsw connection to `path` with the vec0 extension loaded."""
    import apsw
    import sqlite_vec

    conn = apsw.Connection(str(path))
    conn.enable_load_extension(True)
    conn.load_extension(sqlite_vec.loadable_path())
    conn.enable_load_extension(False)
    return conn


def blob(vec: np.ndarray) -> bytes:
    return np.asarray(vec, dtype="<f4").tobytes()


class VecTable:
    """KNN over `memories_vec`; writes join the caller's transaction."""

    def __init__(self, conn: Any, embedder_name: str, dim: int, where: str) -> None:
        self.conn, self.dim = conn, dim
        conn.execute("CREATE TABLE IF NOT EXISTS vec_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
        conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS memories_vec USING vec0(embedding float[{dim}] "
                     "distance_metric=cosine)")
        conn.execute("INSERT OR IGNORE INTO vec_meta VALUES ('embedder', ?)", (f"{embedder_name}/{dim}",))
        stored = conn.execute("SELECT value FROM vec_meta WHERE name = 'embedder'").fetchone()[0]
        if stored != f"{embedder_name}/{dim}":
            raise EmbedderMismatch(f"{where}: vectors are from {stored!r}, not {embedder_name}/{dim}")

    def put(self, seq: int, vec: np.ndarray) -> None:
        if np.any(vec):
            self.conn.execute("INSERT INTO memories_vec(rowid, embedding) VALUES (?, ?)", (seq, blob(vec)))

    def delete(self, seq: int) -> None:
        self.conn.execute("DELETE FROM memories_vec WHERE rowid = ?", (seq,))

    def knn(self, query: np.ndarray, k: int, allowed: tuple[str, list[Any]] | None = None) -> list[tuple[int, float]]:
        """Nearest `k` as (seq, cosine similarity), optionally among the seqs the subquery `allowed` selects."""
        if k <= 0 or not np.any(query):
            return []
        sql = "SELECT rowid, distance FROM memories_vec WHERE embedding MATCH ? AND k = ?"
        params: list[Any] = [blob(query), min(k, MAX_K)]
        if allowed is not None:
            sql += f" AND rowid IN ({allowed[0]})"
            params += allowed[1]
        rows = self.conn.execute(sql, params).fetchall()  # vec0 returns them nearest first
        return [(seq, 1.0 - float(d)) for seq, d in rows]
