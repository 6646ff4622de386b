"""The `files`, `symbols` and `chunks` tables and the chunk FTS5 index.

`files.mode` is "indexed" (symbols and chunks extracted) or "registered"
(file record only, from `register_file`). `chunks_fts` stores its own copy of
each chunk's text (rowid = the chunk's key hash), because chunk text otherwise
lives only in `blob.dat`.
"""
from __future__ import annotations

import sqlite3
from dataclasses import asdict, astuple, dataclass

from reference.tracker.codec import from_db, to_db
from reference.tracker.rowsum import check_row, row_sum


@dataclass(frozen=True)
class FileRow:
    path: str
    key_hash: int
    content_hash: str
    size: int
    blob_offset: int
    blob_length: int
    indexed_at: float
    mode: str = "indexed"


@dataclass(frozen=True)
class SymbolRow:
    key: str
    key_hash: int
    path: str
    name: str
    kind: str
    start_line: int
    end_line: int
    blob_offset: int
    blob_length: int


@dataclass(frozen=True)
class ChunkRow:
    key: str
    key_hash: int
    path: str
    chunk_id: int
    start_line: int
    end_line: int
    blob_offset: int
    blob_length: int


_FILE_COLS = "path, key_hash, content_hash, size, blob_offset, blob_length, indexed_at, mode, row_sum"
_SYM_COLS = "key, key_hash, path, name, kind, start_line, end_line, blob_offset, blob_length, row_sum"
_CHUNK_COLS = "key, key_hash, path, chunk_id, start_line, end_line, blob_offset, blob_length, row_sum"


_TABLE_OF = {FileRow: "files", SymbolRow: "symbols", ChunkRow: "chunks"}


def _encode(row: tuple, hash_pos: int) -> tuple:
    """The stored values followed by their `row_sum` (rowsum.py)."""
    values = row[:hash_pos] + (to_db(row[hash_pos]),) + row[hash_pos + 1:]
    return values + (row_sum(values),)


class CodeTables:
    """Row access for files, symbols and chunks; every method takes the caller's connection.

    Rows carry a `row_sum` checksum checked on every read (`CorruptData` naming
    `path` and the row's key when it differs).
    """

    def __init__(self, path: str = "tracker.db") -> None:
        self.path = path

    def _decode(self, cls, row: tuple, hash_pos: int):
        row = check_row(self.path, _TABLE_OF[cls], row)
        return cls(*row[:hash_pos], from_db(row[hash_pos]), *row[hash_pos + 1:])

    def upsert_file(self, conn: sqlite3.Connection, row: FileRow) -> None:
        conn.execute(f"INSERT OR REPLACE INTO files({_FILE_COLS}) VALUES (?,?,?,?,?,?,?,?,?)", _encode(astuple(row), 1))

    def get_file(self, conn: sqlite3.Connection, path: str) -> FileRow | None:
        row = conn.execute(f"SELECT {_FILE_COLS} FROM files WHERE path = ?", (path,)).fetchone()
        return self._decode(FileRow, row, 1) if row else None

    def insert_symbols(self, conn: sqlite3.Connection, rows: list[SymbolRow]) -> None:
        conn.executemany(f"INSERT INTO symbols({_SYM_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?)",
                         [_encode(astuple(r), 1) for r in rows])

    def insert_chunks(self, conn: sqlite3.Connection, rows: list[ChunkRow], texts: list[str]) -> None:
        conn.executemany(f"INSERT INTO chunks({_CHUNK_COLS}) VALUES (?,?,?,?,?,?,?,?,?)",
                         [_encode(astuple(r), 1) for r in rows])
        conn.executemany("INSERT INTO chunks_fts(rowid, text) VALUES (?, ?)",
                         [(to_db(r.key_hash), t) for r, t in zip(rows, texts)])

    def delete_children(self, conn: sqlite3.Connection, path: str) -> list[int]:
        """Remove the symbols and chunks of `path`; return their key hashes."""
        syms = [r[0] for r in conn.execute("SELECT key_hash FROM symbols WHERE path = ?", (path,))]
        chunks = [r[0] for r in conn.execute("SELECT key_hash FROM chunks WHERE path = ?", (path,))]
        conn.execute("DELETE FROM symbols WHERE path = ?", (path,))
        conn.execute("DELETE FROM chunks WHERE path = ?", (path,))
        conn.executemany("DELETE FROM chunks_fts WHERE rowid = ?", [(c,) for c in chunks])
        return [from_db(h) for h in syms + chunks]

    def symbols_of(self, conn: sqlite3.Connection, path: str) -> list[SymbolRow]:
        q = f"SELECT {_SYM_COLS} FROM symbols WHERE path = ? ORDER BY start_line, key"
        return [self._decode(SymbolRow, r, 1) for r in conn.execute(q, (path,))]

    def chunks_of(self, conn: sqlite3.Connection, path: str) -> list[ChunkRow]:
        q = f"SELECT {_CHUNK_COLS} FROM chunks WHERE path = ? ORDER BY chunk_id"
        return [self._decode(ChunkRow, r, 1) for r in conn.execute(q, (path,))]

    def all_symbols(self, conn: sqlite3.Connection) -> list[SymbolRow]:
        return [self._decode(SymbolRow, r, 1) for r in conn.execute(f"SELECT {_SYM_COLS} FROM symbols ORDER BY key")]

    def hashes(self, conn: sqlite3.Connection, table: str) -> list[int]:
        if table not in ("files", "symbols", "chunks"):
            raise ValueError(f"not a code table: {table!r}")
        return [from_db(r[0]) for r in conn.execute(f"SELECT key_hash FROM {table}")]

    def locate(self, conn: sqlite3.Connection, key_hash: int) -> tuple[str, dict] | None:
        """(kind, row as dict) of the file, symbol or chunk with this hash."""
        kh = to_db(key_hash)
        for kind, cls, cols, table in (("file", FileRow, _FILE_COLS, "files"),
                                       ("symbol", SymbolRow, _SYM_COLS, "symbols"),
                                       ("chunk", ChunkRow, _CHUNK_COLS, "chunks")):
            row = conn.execute(f"SELECT {cols} FROM {table} WHERE key_hash = ?", (kh,)).fetchone()
            if row:
                return kind, asdict(self._decode(cls, row, 1))
        return None

    def fts_chunks(self, conn: sqlite3.Connection, match: str, k: int) -> list[tuple[ChunkRow, float]]:
        q = (
            f"SELECT * FROM (SELECT {', '.join('c.' + x.strip() for x in _CHUNK_COLS.split(','))}, "
            "-bm25(chunks_fts) AS score FROM chunks_fts JOIN chunks c ON c.key_hash = chunks_fts.rowid "
            "WHERE chunks_fts MATCH ?) ORDER BY score DESC, key ASC LIMIT ?"
        )
        return [(self._decode(ChunkRow, r[:-1], 1), float(r[-1])) for r in conn.execute(q, (match, k))]

    def count(self, conn: sqlite3.Connection, table: str) -> int:
        if table not in ("files", "symbols", "chunks"):
            raise ValueError(f"not a code table: {table!r}")
        return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
