"""FTS5's bm25 ranking of `memories_fts`, computed in numpy from cached postings.

`ORDER BY bm25(memories_fts)` scores every document matching any query word,
row by row in C with a B-tree read per row: ~170 ms at 100k memories for five
common words. This index gives the same answer (same tokens, same formula,
same floating-point operations in the same order, so the same scores to the
last bit; tests compare it with FTS5) in a few vectorised steps per word.

What it holds, per store:
- per row (an internal id; the FTS rowid is the memory's key hash): its
  length in tokens (from `memories_fts_docsize`) and whether it is live;
- per term, loaded on first use from `fts5vocab(instance)` (`WHERE term = ?`,
  so only the query's words are read): every instance as `id << 32 | position`
  (position = column << 28 | token offset), sorted; phrases of several tokens
  match consecutive positions, as in FTS5;
- the row count and token total come from FTS5's own averages record at each query.

Freshness, as in `FilterIndex` (it follows that index's notes): a committed
write or update notes the key hash as pending; the next query reads pending
rows back from `memories`, tokenizes them with the same tokenizer
(fts_tokens.py) and appends their instances to the terms already loaded
(an update retires the row's old id). A delete retires the id. A commit by
another connection (`PRAGMA data_version`) or a rollback (`reset`) drops
everything; the next query starts over (reading `_docsize`: ~0.1 s at 100k).
Inside an open transaction FTS5 ranks with totals not yet written, so
`ranked` answers None there and the caller asks FTS5.
"""
from __future__ import annotations

import math
import re
import sqlite3
import threading

import numpy as np

from reference.tracker.codec import to_db
from reference.tracker.fts_records import sizes_of, totals
from reference.tracker.fts_tokens import FtsTokens

K1, B = 1.2, 0.75  # FTS5's bm25 constants
_PHRASE = re.compile(r'"((?:[^"]|"")*)"')
_MATCH = re.compile(r'^"(?:[^"]|"")*"(?: OR "(?:[^"]|"")*")*$')
_VOCAB = "codemem_memories_vi"


def phrases_of(match: str) -> list[str] | None:
    """The phrases of an `fts_match` string ("a" OR "b" ...); None for any other MATCH syntax."""
    if not _MATCH.match(match):
        return None
    return [p.replace('""', '"') for p in _PHRASE.findall(match)]


class KeywordIndex:
    """bm25 over `memories_fts` from numpy postings (see module docstring)."""

    def __init__(self, table: str = "memories_fts") -> None:
        self.table = table
        self._lock = threading.RLock()
        self._tokens = FtsTokens()
        self.reset()

    # -- maintenance (FilterIndex forwards its notes here) -------------------------
    def reset(self) -> None:
        with self._lock:
            self._built = False
            self._versions: dict[int, int] = {}
            self._vocab_on: set[int] = set()
            self._terms: dict[str, np.ndarray] = {}
            self._pending: dict[int, None] = {}
            self._n = 0
            self._kh = np.zeros(0, dtype=np.uint64)
            self._size = np.zeros(0, dtype=np.float64)
            self._live = np.zeros(0, dtype=bool)
            self._scratch = np.zeros(0, dtype=np.float64)
            self._base = np.zeros(0, dtype=np.int64)  # rowids at build, ascending
            self._base_id = np.zeros(0, dtype=np.int64)  # their current internal id
            self._extra: dict[int, int] = {}  # rowid -> id, for rows first seen after the build

    def note_write(self, key_hash: int, labels: object = None) -> None:
        """A memory was inserted or changed and committed."""
        with self._lock:
            if self._built:
                self._pending[int(key_hash)] = None

    def note_delete(self, key_hash: int) -> None:
        with self._lock:
            if self._built:
                self._retire(to_db(int(key_hash)))

    # -- answering -----------------------------------------------------------------
    def ranked(self, conn: sqlite3.Connection, match: str, k: int,
               allowed: np.ndarray | None = None) -> list[tuple[int, float]] | None:
        """(key hash, -bm25) of the best `k` matches among `allowed` plus ties with the k-th, best first
        (ties by key hash); None when FTS5 must answer (other MATCH syntax, open transaction, a
        phrase without tokens)."""
        phrases = phrases_of(match)
        if phrases is None or conn.in_transaction:
            return None
        with self._lock:
            tokens = [self._tokens.phrase(p) for p in phrases]
            if any(not t for t in tokens):
                return None
            self._fresh(conn)
            self._catch_up(conn)
            n_rows, n_tokens = totals(conn, self.table)
            if n_rows == 0 or k <= 0:
                return []
            ids, scores = self._score(conn, tokens, n_rows, n_tokens)
        return _top(self._kh[ids], scores, k, allowed)

    def _score(self, conn: sqlite3.Connection, tokens: list[tuple[str, ...]], n_rows: int, n_tokens: int
               ) -> tuple[np.ndarray, np.ndarray]:
        """Ids of every live row matching a phrase, and their -bm25, as fts5_aux.c computes it."""
        avgdl = float(n_tokens) / float(n_rows)
        acc, touched = self._scratch, []
        for toks in tokens:
            keys = self._phrase_keys(conn, toks)
            docs = keys >> 32
            docs = docs[self._live[docs]]
            if docs.size == 0:
                continue
            starts = np.flatnonzero(np.concatenate(([True], docs[1:] != docs[:-1])))
            ids = docs[starts]
            freq = np.diff(np.append(starts, docs.size)).astype(np.float64)
            n_hit = ids.size
            idf = math.log((n_rows - n_hit + 0.5) / (n_hit + 0.5))
            if idf <= 0.0:
                idf = 1e-6
            acc[ids] += idf * ((freq * (K1 + 1.0)) / (freq + K1 * ((1 - B) + B * self._size[ids] / avgdl)))
            touched.append(ids)
        if not touched:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
        ids = touched[0] if len(touched) == 1 else np.unique(np.concatenate(touched))
        scores = acc[ids]
        acc[ids] = 0.0
        return ids, scores

    def _phrase_keys(self, conn: sqlite3.Connection, toks: tuple[str, ...]) -> np.ndarray:
        """Instance keys (id << 32 | position) where the phrase starts."""
        keys = self._term(conn, toks[0])
        for j, tok in enumerate(toks[1:], start=1):
            nxt = self._term(conn, tok)
            keys = keys[np.isin(keys + j, nxt)]
        return keys

    # -- state -----------------------------------------------------------------------
    def _fresh(self, conn: sqlite3.Connection) -> None:
        version = conn.execute("PRAGMA data_version").fetchone()[0]
        seen = self._versions.get(id(conn))
        if not self._built or (seen is not None and seen != version):
            self.reset()
            self._build(conn)
        self._versions[id(conn)] = version

    def _build(self, conn: sqlite3.Connection) -> None:
        rowids, sizes = sizes_of(conn, None, self.table)
        self._grow(rowids.size)
        self._n = rowids.size
        self._kh[: self._n] = rowids.view(np.uint64)
        self._size[: self._n] = sizes
        self._live[: self._n] = True
        self._base, self._base_id = rowids, np.arange(rowids.size, dtype=np.int64)
        self._built = True

    def _grow(self, n: int) -> None:
        if n <= self._kh.size:
            return
        cap = max(n, 2 * self._kh.size, 1024)
        for name in ("_kh", "_size", "_live", "_scratch"):
            old = getattr(self, name)
            new = np.zeros(cap, dtype=old.dtype)
            new[: old.size] = old
            setattr(self, name, new)

    def _id_of(self, rowid: int) -> int | None:
        pos = int(np.searchsorted(self._base, rowid))
        if pos < self._base.size and self._base[pos] == rowid:
            return int(self._base_id[pos])
        return self._extra.get(rowid)

    def _set_id(self, rowid: int, new: int) -> None:
        pos = int(np.searchsorted(self._base, rowid))
        if pos < self._base.size and self._base[pos] == rowid:
            self._base_id[pos] = new
        else:
            self._extra[rowid] = new

    def _retire(self, rowid: int) -> None:
        old = self._id_of(rowid)
        if old is not None:
            self._live[old] = False

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
        ids = self._ids_of_rowids(arr[:, 0])
        keys = np.sort((ids << 32) | arr[:, 1])
        self._terms[term] = keys
        return keys

    def _ids_of_rowids(self, rowids: np.ndarray) -> np.ndarray:
        if self._base.size == 0:
            return np.asarray([self._extra[int(r)] for r in rowids], dtype=np.int64)
        pos = np.minimum(np.searchsorted(self._base, rowids), self._base.size - 1)
        found = self._base[pos] == rowids
        ids = self._base_id[pos]
        for i in np.flatnonzero(~found).tolist():
            ids[i] = self._extra[int(rowids[i])]
        return ids

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
            self._set_id(rowid, first + i)
        self._n = first + len(rows)
        terms, doc, pos = self._tokens.documents([(t, g) for _, t, g in rows])
        keys = ((doc + first) << 32) | pos
        by_term: dict[str, list[int]] = {}
        for i, term in enumerate(terms):
            if term in self._terms:
                by_term.setdefault(term, []).append(i)
        for term, idx in by_term.items():
            new = np.sort(keys[idx])
            self._terms[term] = np.concatenate((self._terms[term], new))


def _top(key_hashes: np.ndarray, scores: np.ndarray, k: int,
         allowed: np.ndarray | None) -> list[tuple[int, float]]:
    """The best `k` (plus ties with the k-th) among `allowed`, best first, ties by key hash."""
    if allowed is not None:
        if allowed.size == 0:
            return []
        pos = np.minimum(np.searchsorted(allowed, key_hashes), allowed.size - 1)
        ok = allowed[pos] == key_hashes
        key_hashes, scores = key_hashes[ok], scores[ok]
    if scores.size > k:
        kth = np.partition(scores, scores.size - k)[scores.size - k]
        sel = np.flatnonzero(scores >= kth)
        key_hashes, scores = key_hashes[sel], scores[sel]
    order = np.lexsort((key_hashes, -scores))
    return [(int(key_hashes[i]), float(scores[i])) for i in order]
