"""The postings and row bookkeeping behind `KeywordIndex`: what FTS5 indexed, mirrored in numpy.

What it holds, per store:
- per row (an internal id, rows.py; the FTS rowid is the memory's key
  hash): its length in tokens (from `memories_fts_docsize`) and whether it is live;
- per term, loaded on first use from `fts5vocab(instance)` (`WHERE term = ?`,
  so only the query's words are read): every instance as `id << 32 | position`
  (position = column << 28 | token offset), sorted; phrases of several tokens
  match consecutive positions, as in FTS5;
- per phrase, its rows and bm25's tf part per row, cached until a write changes them.

Freshness, as in `FilterIndex` (it follows that index's notes): a committed
write or update notes the key hash as pending; the next query reads pending
rows back from `memories`, tokenizes them with the same tokenizer
(`reference/tracker/fts/tokens.py`) and appends their instances to the terms already loaded
(an update retires the row's old id). A delete retires the id. A change it
was not told of (a memories revision it does not reflect: another process's,
`memory_revision.py`) or a rollback (`reset`) drops everything; the next query
starts over (reading `_docsize`: ~0.1 s at 100k).
"""
from __future__ import annotations

import sqlite3
import threading

import numpy as np

from reference.tracker.keyword.bm25 import tf_part
from reference.tracker.codec import to_db
from reference.tracker.fts.records import sizes_of
from reference.tracker.fts.tokens import FtsTokens
from reference.tracker.keyword.rows import RowIds
from reference.tracker.memory_revision import Reflected

_VOCAB = "codemem_memories_vi"


class KeywordPostings:
    """Rows, term instances and phrase postings of `memories_fts` in numpy (see module docstring)."""

    def __init__(self, table: str = "memories_fts") -> None:
        self.table = table
        self._lock = threading.RLock()
        self._tokens = FtsTokens()
        self._reflected = Reflected()
        self.reset()

    # -- maintenance (FilterIndex forwards its notes here) -------------------------
    def reset(self) -> None:
        with self._lock:
            self._built = False
            self._reflected.forget()
            self._vocab_on: set[int] = set()
            self._terms: dict[str, np.ndarray] = {}
            self._pending: dict[int, None] = {}
            self._n = 0
            self._kh = np.zeros(0, dtype=np.uint64)
            self._size = np.zeros(0, dtype=np.float64)
            self._live = np.zeros(0, dtype=bool)
            self._seen = np.zeros(0, dtype=bool)  # per-id mask for unions, all False between queries
            self._rows = RowIds()  # FTS rowid -> internal id
            self._dead = 0  # retired ids
            self._version = 0  # bumped whenever rows are added or retired (drops cached postings)
            self._cache: dict[tuple[str, ...], tuple] = {}

    def note_write(self, key_hash: int, labels: object = None, rev: int | None = None) -> None:
        """A memory was inserted or changed (by the change that moved the revision to `rev`)."""
        with self._lock:
            self._reflected.noted(rev)
            if self._built:
                self._pending[int(key_hash)] = None

    def note_delete(self, key_hash: int, rev: int | None = None) -> None:
        with self._lock:
            self._reflected.noted(rev)
            if self._built:
                self._retire(to_db(int(key_hash)))

    def _postings(self, conn: sqlite3.Connection, toks: tuple[str, ...], avgdl: float
                  ) -> tuple[np.ndarray, np.ndarray, float]:
        """(live ids containing the phrase, ascending; bm25's tf part per id; its largest), cached
        until the phrase's rows or the average row length change."""
        hit = self._cache.get(toks)
        if hit is not None and hit[0] == self._version and hit[1] == avgdl:
            return hit[2:]
        keys = self._phrase_keys(conn, toks)
        docs = keys >> 32
        if self._dead:
            docs = docs[self._live[docs]]
        starts = np.flatnonzero(np.concatenate(([True], docs[1:] != docs[:-1]))) if docs.size else docs
        ids = docs[starts]
        freq = np.diff(np.append(starts, docs.size)).astype(np.float64)
        ratio = tf_part(freq, self._size[ids], avgdl)
        best = float(ratio.max()) if ratio.size else 0.0
        self._cache[toks] = (self._version, avgdl, ids, ratio, best)
        return ids, ratio, best

    def _phrase_keys(self, conn: sqlite3.Connection, toks: tuple[str, ...]) -> np.ndarray:
        """Instance keys (id << 32 | position) where the phrase starts."""
        keys = self._term(conn, toks[0])
        for j, tok in enumerate(toks[1:], start=1):
            nxt = self._term(conn, tok)
            keys = keys[np.isin(keys + j, nxt)]
        return keys

    def _ids_of_hashes(self, hashes: np.ndarray) -> np.ndarray:
        """Live internal ids (ascending) of the given key hashes; unknown ones are dropped."""
        out = self._rows.of_any(np.asarray(hashes, dtype=np.uint64).view(np.int64))
        out = out[out >= 0]
        return np.sort(out[self._live[out]])

    # -- state -----------------------------------------------------------------------
    def _fresh(self, conn: sqlite3.Connection) -> None:
        reflects, rev = self._reflected.check(conn)
        if not self._built or not reflects:
            self.reset()
            self._build(conn)
            self._reflected.built(rev)

    def _build(self, conn: sqlite3.Connection) -> None:
        rowids, sizes = sizes_of(conn, None, self.table)
        self._grow(rowids.size)
        self._n = rowids.size
        self._kh[: self._n] = rowids.view(np.uint64)
        self._size[: self._n] = sizes
        self._live[: self._n] = True
        self._rows = RowIds(rowids)
        self._built = True

    def _grow(self, n: int) -> None:
        if n <= self._kh.size:
            return
        cap = max(n, 2 * self._kh.size, 1024)
        for name in ("_kh", "_size", "_live", "_seen"):
            old = getattr(self, name)
            new = np.zeros(cap, dtype=old.dtype)
            new[: old.size] = old
            setattr(self, name, new)

    def _retire(self, rowid: int) -> None:
        old = self._rows.get(rowid)
        if old is not None and self._live[old]:
            self._live[old] = False
            self._dead += 1
            self._version += 1
            if len(self._cache) > 4096:
                self._cache.clear()

    def _term(self, conn: sqlite3.Connection, term: str) -> np.ndarray:
        keys = self._terms.get(term)
        if keys is not None:
            return keys
        if id(conn) not in self._vocab_on:
            conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{_VOCAB} USING fts5vocab(main, {self.table}, "
                         "instance)")
            self._vocab_on.add(id(conn))
        rows = conn.execute(f"SELECT doc, (col = 'tags') << 28 | offset FROM temp.{_VOCAB} WHERE term = ?",
                            (term,)).fetchall()
        arr = np.array(rows, dtype=np.int64).reshape(-1, 2)
        ids = self._rows.of_known(arr[:, 0])
        keys = np.sort((ids << 32) | arr[:, 1])
        self._terms[term] = keys
        return keys

    def _catch_up(self, conn: sqlite3.Connection) -> None:
        """Index the rows noted as written since the last query."""
        if not self._pending:
            return
        rowids = [to_db(h) for h in self._pending]
        self._pending = {}
        for r in rowids:
            self._retire(r)
        rows = []
        for i in range(0, len(rowids), 500):
            part = rowids[i: i + 500]
            rows += conn.execute(f"SELECT key_hash, text, coalesce(tags, '') FROM memories WHERE key_hash IN "
                                 f"({','.join('?' * len(part))})", part).fetchall()
        if not rows:
            return
        rows.sort()
        found, sizes = sizes_of(conn, [r[0] for r in rows], self.table)
        size_of = dict(zip(found.tolist(), sizes.tolist()))
        first = self._n
        self._grow(first + len(rows))
        for i, (rowid, _, _) in enumerate(rows):
            self._kh[first + i] = np.int64(rowid).view(np.uint64)
            self._size[first + i] = size_of.get(rowid, 0.0)
            self._live[first + i] = True
            self._rows.set(rowid, first + i)
        self._n = first + len(rows)
        self._version += 1
        terms, doc, pos = self._tokens.documents([(t, g) for _, t, g in rows])
        keys = ((doc + first) << 32) | pos
        by_term: dict[str, list[int]] = {}
        for i, term in enumerate(terms):
            if term in self._terms:
                by_term.setdefault(term, []).append(i)
        for term, idx in by_term.items():
            new = np.sort(keys[idx])
            self._terms[term] = np.concatenate((self._terms[term], new))
