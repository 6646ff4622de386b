"""The `memories` table (seed 000 §3.1 + `metadata`) and its FTS5 index.

Deletes are real: the row and its FTS entry go (the blob record stays, the
blob being append-only, and the key stays registered in `keys`). The FTS
index is contentless (`content=''`) with rowid = the memory's key hash, since
the row already holds the text; a delete passes the row's own text and tags
back to FTS5, as contentless tables require.
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from typing import Any

from reference.errors import CorruptData
from reference.memories.record import MemoryEntry
from reference.tracker.codec import from_db, to_db
from reference.tracker.filters import MemoryFilter
from reference.tracker.rowsum import check_row, row_sum

COLUMNS = (
    "id, task, insights, context, symbol_keys, text, tags, blob_offset, blob_length, "
    "key_hash, created_at, updated_at, metadata"
)
_COLS_M = ", ".join("m." + c.strip() for c in COLUMNS.split(",")) + ", m.row_sum"
_SELECT = "SELECT " + _COLS_M + " FROM memories m"
ORDER_NEWEST = "m.created_at DESC, m.id ASC"
ORDER_OLDEST = "m.created_at ASC, m.id ASC"


# decoded JSON arrays of the list columns by their text: slugs and tags repeat across rows, and a tuple of
# str / int is immutable, so entries can share one (json.loads cost ~3 us a column, 5 columns a row)
_ARRAYS: dict[str, tuple] = {}
_MAX_ARRAYS = 4096


def _array(text: str | None) -> tuple:
    """A JSON array column as a tuple (shared between rows when its items are immutable scalars)."""
    if not text or text == "[]":
        return ()
    hit = _ARRAYS.get(text)
    if hit is None:
        hit = tuple(json.loads(text))
        if all(v is None or isinstance(v, (str, int, float)) for v in hit):
            if len(_ARRAYS) >= _MAX_ARRAYS:
                _ARRAYS.clear()
            _ARRAYS[text] = hit
    return hit


def entry_from_row(row: tuple, path: str = "tracker.db") -> MemoryEntry:
    """A checked row (the columns of COLUMNS then row_sum) as an entry; `CorruptData` if damaged."""
    (mid, task, insights, context, symbol_keys, text, tags, off, length, kh, created, updated, meta) = \
        check_row(path, "memories", row)
    return MemoryEntry(
        id=mid,
        key_hash=from_db(kh),
        task=task,
        insights=_array(insights),
        context=_array(context),
        symbol_keys=_array(symbol_keys),
        text=text,
        tags=_array(tags),
        metadata={} if not meta or meta == "{}" else json.loads(meta),
        created_at=created,
        updated_at=updated,
        blob_offset=off,
        blob_length=length,
    )


# one encoder for every row (json.dumps with options builds a new one per call); same text as json.dumps
_dump = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode
_INSERT = f"INSERT INTO memories({COLUMNS}, row_sum) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
# FTS5 flushes its pending terms at each statement's end: one statement per row keeps the FTS segments (and
# so the file size) exactly as single writes make them; a multi-row statement would merge them
_INSERT_FTS = "INSERT INTO memories_fts(rowid, text, tags) VALUES (?, ?, ?)"


def _stored(e: MemoryEntry) -> tuple:
    """The row's column values as stored, in COLUMNS order."""
    return (e.id, e.task, _list_json(e.insights), _list_json(e.context), _list_json(e.symbol_keys), e.text,
            _list_json(e.tags), e.blob_offset, e.blob_length, to_db(e.key_hash), e.created_at, e.updated_at,
            "{}" if e.metadata == {} else _dump(e.metadata))


def _list_json(values: Any) -> str:
    """`_dump(list(values))`; an empty one (most columns of most rows) without the encoder."""
    return _dump(list(values)) if values else "[]"


class MemoriesTable:
    """Row access for memories; every method takes the caller's connection.

    Rows carry a `row_sum` checksum (rowsum.py) checked on every read; `path`
    names the database in the `CorruptData` a damaged row raises.
    """

    def __init__(self, path: str = "tracker.db", damaged: tuple = ()) -> None:
        self.path = path
        self.damaged = damaged          # open_check.DamagedRow: rows whose checksum failed on open

    def check_whole(self) -> None:
        """Raise the store's error about a damaged row before a read that selects or orders rows by their
        columns (a list, a filter): a damaged row could be silently left out of it, or put in the wrong
        place. Reads by id, and rankings that read only their winners, are served as before."""
        if self.damaged:
            more = f" (and {len(self.damaged) - 1} more damaged rows)" if len(self.damaged) > 1 else ""
            raise CorruptData(f"{self.damaged[0].error}{more}; lists and filtered reads cannot be answered while "
                              f"it is damaged (reads of other memories by id, and searches, are served); restore "
                              f"tracker.db from a copy, or run `codemem-bench verify` for every damaged record")

    def _entry(self, row: tuple) -> MemoryEntry:
        return entry_from_row(row, self.path)

    def insert(self, conn: sqlite3.Connection, e: MemoryEntry) -> None:
        self.insert_many(conn, [e])

    def insert_many(self, conn: sqlite3.Connection, entries: list[MemoryEntry]) -> None:
        """Rows and FTS entries of several memories, in order (one statement per row: see `_INSERT_FTS`)."""
        values = [_stored(e) for e in entries]
        conn.executemany(_INSERT, [(*v, row_sum(v)) for v in values])
        conn.executemany(_INSERT_FTS, [(v[9], v[5], v[6]) for v in values])

    def update_metadata(self, conn: sqlite3.Connection, key_hash: int, metadata: dict, updated_at: float,
                        blob_offset: int, blob_length: int) -> None:
        old = self.get(conn, key_hash)  # checked: a damaged row is never rewritten with a fresh checksum
        if old is None:
            return
        new = _stored(old)[:7] + (blob_offset, blob_length, to_db(key_hash), old.created_at, updated_at,
                                  _dump(metadata))
        conn.execute(
            "UPDATE memories SET metadata = ?, updated_at = ?, blob_offset = ?, blob_length = ?, row_sum = ? "
            "WHERE key_hash = ?",
            (new[12], updated_at, blob_offset, blob_length, row_sum(new), to_db(key_hash)),
        )

    def delete(self, conn: sqlite3.Connection, key_hash: int) -> bool:
        kh = to_db(key_hash)
        old = self.get(conn, key_hash)  # checked: FTS5 needs the exact text and tags to delete
        if old is None:
            return False
        conn.execute("INSERT INTO memories_fts(memories_fts, rowid, text, tags) VALUES ('delete', ?, ?, ?)",
                     (kh, old.text, _dump(list(old.tags))))
        conn.execute("DELETE FROM memories WHERE key_hash = ?", (kh,))
        return True

    def get(self, conn: sqlite3.Connection, key_hash: int) -> MemoryEntry | None:
        row = conn.execute(_SELECT + " WHERE m.key_hash = ?", (to_db(key_hash),)).fetchone()
        return self._entry(row) if row else None

    def get_many(self, conn: sqlite3.Connection, key_hashes: list[int]) -> dict[int, MemoryEntry]:
        out: dict[int, MemoryEntry] = {}
        for i in range(0, len(key_hashes), 500):
            part = [to_db(h) for h in key_hashes[i: i + 500]]
            q = _SELECT + f" WHERE m.key_hash IN ({','.join('?' * len(part))})"
            for row in conn.execute(q, part):
                e = self._entry(row)
                out[e.key_hash] = e
        return out

    def ids_of(self, conn: sqlite3.Connection, key_hashes: list[int]) -> dict[int, str]:
        """Key hash -> memory id, for the hashes that have a row (no JSON decoded)."""
        out: dict[int, str] = {}
        for i in range(0, len(key_hashes), 500):
            part = [to_db(h) for h in key_hashes[i: i + 500]]
            rows = conn.execute(f"SELECT key_hash, id FROM memories WHERE key_hash IN ({','.join('?' * len(part))})",
                                part)
            out.update((from_db(kh), mid) for kh, mid in rows)
        return out

    def exists_id(self, conn: sqlite3.Connection, memory_id: str) -> bool:
        return conn.execute("SELECT 1 FROM memories WHERE id = ?", (memory_id,)).fetchone() is not None

    def query(self, conn: sqlite3.Connection, flt: MemoryFilter, *, order: str = ORDER_NEWEST,
              limit: int | None = None, offset: int = 0) -> list[MemoryEntry]:
        self.check_whole()
        where, params = flt.sql("m")
        sql = f"{_SELECT} WHERE {where} ORDER BY {order}"
        if limit is not None:
            sql += " LIMIT ? OFFSET ?"
            params = [*params, limit, offset]
        return [self._entry(r) for r in conn.execute(sql, params)]

    def iter(self, conn: sqlite3.Connection, flt: MemoryFilter, batch: int = 1000) -> Iterator[MemoryEntry]:
        """Oldest first, read in keyset-paginated batches so no cursor stays open between yields."""
        self.check_whole()
        where, params = flt.sql("m")
        last: tuple[float, str] | None = None
        while True:
            cond, p = where, list(params)
            if last is not None:
                cond = f"({where}) AND (m.created_at > ? OR (m.created_at = ? AND m.id > ?))"
                p += [last[0], last[0], last[1]]
            rows = conn.execute(f"{_SELECT} WHERE {cond} ORDER BY {ORDER_OLDEST} LIMIT ?", [*p, batch]).fetchall()
            for r in rows:
                yield self._entry(r)
            if len(rows) < batch:
                return
            last = (rows[-1][10], rows[-1][0])

    def candidate_hashes(self, conn: sqlite3.Connection, flt: MemoryFilter) -> list[int]:
        self.check_whole()
        where, params = flt.sql("m")
        return [from_db(r[0]) for r in conn.execute(f"SELECT m.key_hash FROM memories m WHERE {where}", params)]

    def fts(self, conn: sqlite3.Connection, match: str, flt: MemoryFilter, k: int) -> list[tuple[MemoryEntry, float]]:
        """Top `k` by bm25 as (entry, positive score = -bm25), ties by id ascending."""
        if flt.empty:
            fast = self._fts_unfiltered(conn, match, k)
            if fast is not None:
                return fast
        self.check_whole()
        where, params = flt.sql("m")
        sql = (
            f"SELECT * FROM (SELECT {_COLS_M}, "
            "-bm25(memories_fts) AS score FROM memories_fts JOIN memories m ON m.key_hash = memories_fts.rowid "
            f"WHERE memories_fts MATCH ? AND {where}) ORDER BY score DESC, id ASC LIMIT ?"
        )
        return [(self._entry(r[:-1]), float(r[-1])) for r in conn.execute(sql, [match, *params, k])]

    def _fts_unfiltered(self, conn: sqlite3.Connection, match: str, k: int
                        ) -> list[tuple[MemoryEntry, float]] | None:
        """Rank in the FTS index alone, then read only the winners' rows.

        Joining every match with its row before sorting costs more than bm25
        itself at 10k memories. Ids are not in the index, so ties at the k-th
        score are re-broken here; None (use the join) if the tie group at the
        cut is larger than the slack fetched.
        """
        slack = k + 16
        rows = conn.execute(
            "SELECT rowid, -bm25(memories_fts) AS score FROM memories_fts WHERE memories_fts MATCH ? "
            "ORDER BY bm25(memories_fts) LIMIT ?", (match, slack)).fetchall()
        if len(rows) == slack and rows[-1][1] == rows[k - 1][1]:
            return None
        if len(rows) > k:
            rows = [r for r in rows if r[1] >= rows[k - 1][1]]
        entries = self.get_many(conn, [from_db(r[0]) for r in rows])
        out = [(entries[from_db(rid)], float(score)) for rid, score in rows if from_db(rid) in entries]
        out.sort(key=lambda es: (-es[1], es[0].id))
        return out[:k]

    def count(self, conn: sqlite3.Connection) -> int:
        return conn.execute("SELECT count(*) FROM memories").fetchone()[0]
