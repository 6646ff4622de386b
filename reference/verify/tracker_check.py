"""Check `tracker.db` read-only: SQLite's own checks, row checksums, keys rows, memory rows vs blob records."""
from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

from reference.blob.frames import HEADER, HEADER_SIZE, MAGIC, checksum
from reference.errors import CorruptData
from reference.keys import hash64
from reference.tracker.codec import from_db
from reference.tracker.keys_table import KIND_OF_NAMESPACE
from reference.tracker.migrations import LATEST, ROW_SUMS_VERSION
from reference.verify.fts_check import check_fts
from reference.tracker.rowsum import TABLES, check_row

_FTS = ("memories_fts", "chunks_fts")
_MAX_LINES = 20


def check_tracker(path: Path, blob_path: Path, report) -> None:
    if not path.exists():
        return
    try:
        conn = sqlite3.connect(path, isolation_level=None)
    except sqlite3.Error as exc:
        report.add(path, "database", f"cannot open ({exc})")
        return
    try:
        if hasattr(conn, "setconfig") and hasattr(sqlite3, "SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE"):
            conn.setconfig(sqlite3.SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, True)  # verify never rewrites the file
        # damaged text must reach the row checksum (and fail it), not stop the check
        conn.text_factory = lambda b: b.decode("utf-8", "surrogateescape")
        conn.execute("PRAGMA query_only=ON")
        count = _run(conn, path, report, blob_path)
        report.checked[str(path)] = count
    except (sqlite3.Error, ValueError) as exc:
        report.add(path, "database", f"{type(exc).__name__}: {str(exc)[:200]}")
    finally:
        conn.close()


def _run(conn: sqlite3.Connection, path: Path, report, blob_path: Path) -> int:
    try:
        lines = [r[0] for r in conn.execute("PRAGMA integrity_check")]
    except sqlite3.DatabaseError as exc:
        report.add(path, "database", f"integrity_check failed: {exc}")
        return 0
    if lines != ["ok"]:
        for line in lines[:_MAX_LINES]:
            report.add(path, "b-tree", f"integrity_check: {line}")
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    _version(conn, path, tables, report)
    conn.execute("PRAGMA query_only=OFF")  # the FTS5 check is phrased as an INSERT; it changes nothing
    for fts in _FTS:
        if fts in tables:
            try:
                conn.execute(f"INSERT INTO {fts}({fts}) VALUES ('integrity-check')")
            except sqlite3.DatabaseError as exc:
                report.add(path, f"full-text index {fts}", f"FTS5 integrity-check: {exc}")
    conn.execute("PRAGMA query_only=ON")
    check_fts(conn, path, tables, report)
    count = 0
    for table, (cols, _) in TABLES.items():
        if table not in tables:
            continue
        count += _rows(conn, path, table, cols, report, blob_path)
    if "keys" in tables:
        count += _keys(conn, path, report)
    return count


def _version(conn, path: Path, tables: set[str], report) -> None:
    """The header's schema version must fit the tables present (a flipped header byte does not)."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    has_sums = "memories" in tables and "row_sum" in [r[1] for r in conn.execute("PRAGMA table_info(memories)")]
    # row checksums arrived in v6: a later version without them, or an earlier one with them, is damaged
    if version > LATEST or (version < ROW_SUMS_VERSION) == has_sums:
        report.add(path, "header", f"schema version {version} does not fit its tables (this code writes "
                   f"version {LATEST}, with row checksums)")


def _rows(conn, path: Path, table: str, cols: tuple[str, ...], report, blob_path: Path) -> int:
    n = 0
    try:
        rows = conn.execute(f"SELECT {', '.join(cols)}, row_sum FROM {table}").fetchall()
    except sqlite3.DatabaseError as exc:
        report.add(path, f"table {table}", str(exc))
        return 0
    with _BlobReader(blob_path) as blob:
        for row in rows:
            n += 1
            try:
                values = check_row(str(path), table, row)
            except CorruptData as exc:
                report.add(path, exc.record or table, "row checksum mismatch")
                continue
            if table == "memories" and values[7] is not None:
                why = blob.memory_mismatch(values)
                if why:
                    report.add(blob_path, f"memory {values[0]!r} (record at offset {values[7]})", why)
    return n


def _keys(conn, path: Path, report) -> int:
    n = 0
    for kh, key, kind in conn.execute("SELECT key_hash, key, kind FROM keys"):
        n += 1
        ns = key.split(":", 1)[0] if isinstance(key, str) else None
        if not isinstance(key, str) or hash64(key) != from_db(kh) or KIND_OF_NAMESPACE.get(ns) not in (None, kind):
            report.add(path, f"keys row {from_db(kh):#018x}", f"key {str(key)[:60]!r} / kind {kind!r} do not "
                       "match their hash")
    return n


class _BlobReader:
    """Read one record by payload offset, checksum verified, without opening (and repairing) the blob."""

    def __init__(self, path: Path) -> None:
        self.fd = os.open(path, os.O_RDONLY) if path.exists() else -1

    def __enter__(self) -> "_BlobReader":
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd >= 0:
            os.close(self.fd)

    def record(self, offset: int) -> bytes | None:
        if self.fd < 0 or offset < HEADER_SIZE:
            return None
        head = os.pread(self.fd, HEADER_SIZE, offset - HEADER_SIZE)
        if len(head) != HEADER_SIZE:
            return None
        magic, length, digest = HEADER.unpack(head)
        if magic != MAGIC or offset + length > os.fstat(self.fd).st_size:
            return None
        payload = os.pread(self.fd, length, offset)
        return payload if checksum(payload) == digest else None

    def memory_mismatch(self, values: tuple) -> str | None:
        """Why the memory row disagrees with its blob record, or None."""
        raw = self.record(values[7])
        if raw is None:
            return "the memory's blob record is missing or fails its checksum"
        try:
            rec = json.loads(raw)
        except ValueError:
            return "the memory's blob record is not JSON"
        if rec.get("id") != values[0] or rec.get("text") != values[5]:
            return "the memory's blob record names another id or text"
        return None
