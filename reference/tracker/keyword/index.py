"""FTS5's bm25 ranking of `memories_fts`, computed in numpy from cached postings.

`ORDER BY bm25(memories_fts)` scores every document matching any query word,
row by row in C with a B-tree read per row: ~170 ms at 100k memories for five
common words. This index gives the same answer (same tokens, same formula,
same floating-point operations in the same order, so the same scores to the
last bit; tests compare it with FTS5) in a few vectorised steps per word.
The postings, and how they follow writes, are in postings.py; the
row count and token total come from FTS5's own averages record at each query.

Scoring picks one of three exact paths: a small filter looks its rows up in
each phrase's postings; a rare phrase can settle the top k alone (MaxScore,
bm25.pruned); otherwise every matching row is scored in one `bincount` and
only rows scoring at least a lower bound of the k-th score are ranked.
Inside an open transaction FTS5 ranks with totals not yet written, so
`ranked` answers None there and the caller asks FTS5.
"""
from __future__ import annotations

import sqlite3

import numpy as np

from reference.tracker.keyword.bm25 import dense_scores, idf, phrases_of, pruned, score_ids, top
from reference.tracker.fts.records import totals
from reference.tracker.keyword.postings import KeywordPostings

# below this many rows FTS5 answers: it is as fast there, and a write before each query (scenario replay)
# costs the index a tokenization per query (measured: 0.6 vs 1.1 ms at 200 rows, 2.8 vs 1.9 ms at 3,000)
MIN_ROWS = 2_000
# a filter smaller than 1/LOOKUP_SHARE of the postings looks its rows up in them; a larger one takes the
# dense path (at 100k: 4k rows looked up in 60k postings 0.8 ms, the dense path 0.3 ms)
LOOKUP_SHARE = 64
# filters repeat (one per task x context pair): their internal ids are kept until a write, for at most
# this many filters and this many allowed keys in all (16 bytes each: the keys and their ids)
_AMONG_CACHE, _AMONG_KEYS = 64, 1 << 21


class KeywordIndex(KeywordPostings):
    """bm25 over `memories_fts` from numpy postings (see module docstring)."""

    def __init__(self, table: str = "memories_fts", min_rows: int = MIN_ROWS) -> None:
        super().__init__(table)
        self.min_rows = min_rows

    def reset(self) -> None:
        with self._lock:
            super().reset()
            self._among: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}  # see _ids_among
            self._products: dict[tuple[str, ...], tuple] = {}  # see _weighted

    def ranked(self, conn: sqlite3.Connection, match: str, k: int,
               allowed: np.ndarray | None = None) -> list[tuple[int, float]] | None:
        """(key hash, -bm25) of the best `k` matches among `allowed` plus ties with the k-th, best first
        (ties by key hash); None when FTS5 must answer (other MATCH syntax, open transaction, a
        phrase without tokens, fewer than `min_rows` rows)."""
        phrases = phrases_of(match)
        if phrases is None or conn.in_transaction:
            return None
        n_rows, n_tokens = totals(conn, self.table)
        if n_rows < self.min_rows:
            return None
        with self._lock:
            tokens = [self._tokens.phrase(p) for p in phrases]
            if any(not t for t in tokens):
                return None
            self._fresh(conn)
            self._catch_up(conn)
            if n_rows == 0 or k <= 0 or (allowed is not None and allowed.size == 0):
                return []
            avgdl = float(n_tokens) / float(n_rows)
            terms = []
            for toks in tokens:
                ids, ratio, best = self._postings(conn, toks, avgdl)
                if ids.size:
                    w = idf(n_rows, ids.size)
                    terms.append((ids, ratio, w, best, self._weighted(toks, ratio, w)))
            if not terms:
                return []
            among = None if allowed is None else self._ids_among(allowed)
            total = sum(t[0].size for t in terms)
            if among is not None and among.size * LOOKUP_SHARE < total:
                return top(*self._named(score_ids(terms, among)), k)
            # MaxScore pays off only without a filter (with one, most tries fail after some work)
            found = None if among is not None else pruned(terms, k, total, self._union)
            if found is None:
                return self._top_of_all(terms, among, k)
            return top(*self._named(found), k)

    def _weighted(self, toks: tuple[str, ...], ratio: np.ndarray, w: float) -> np.ndarray:
        """`w * ratio` (a phrase's bm25 weight per row), kept while the phrase's postings and idf stay:
        recomputing it for ~60k postings a query cost ~0.1 ms at 100k, right after a scan."""
        hit = self._products.get(toks)
        if hit is not None and hit[0] is ratio and hit[1] == w:
            return hit[2]
        if len(self._products) > 4096:
            self._products.clear()
        product = w * ratio
        self._products[toks] = (ratio, w, product)
        return product

    def _named(self, found: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        return self._kh[found[0]], found[1]

    def _ids_among(self, allowed: np.ndarray) -> np.ndarray:
        """`_ids_of_hashes(allowed)`, kept until rows are added or retired (checked equal, not just hashed)."""
        allowed = np.ascontiguousarray(allowed, dtype=np.uint64)
        key = (self._version, allowed.size, hash(allowed.data.tobytes()))
        hit = self._among.get(key)
        if hit is not None and np.array_equal(hit[0], allowed):
            return hit[1]
        among = self._ids_of_hashes(allowed)
        held = sum(k[1] for k in self._among)
        if len(self._among) >= _AMONG_CACHE or held + allowed.size > _AMONG_KEYS \
                or any(k[0] != self._version for k in self._among):
            self._among.clear()
        self._among[key] = (allowed.copy(), among)
        return among

    def _top_of_all(self, terms: list[tuple], among: np.ndarray | None, k: int) -> list[tuple[int, float]]:
        """`top` of every row matching a phrase (among `among`), without ranking them all: rows scoring
        below the k-th best of one phrase's rows (a lower bound of the k-th overall) cannot make it."""
        acc = dense_scores(terms, self._n)  # 0 where no phrase matches; every match scores > 0
        if among is not None:
            scores = acc[among]
            hit = scores > 0
            return top(self._kh[among[hit]], scores[hit], k)
        big = [t for t in terms if t[0].size >= k]
        if big:
            rows = max(big, key=lambda t: t[2] * t[3])[0]  # the highest bound: likely the best rows
            sample = acc[rows]
            ids = np.flatnonzero(acc >= np.partition(sample, sample.size - k)[sample.size - k])
        else:
            ids = np.flatnonzero(acc)
        return top(self._kh[ids], acc[ids], k)

    def _union(self, arrays: list[np.ndarray]) -> np.ndarray:
        """Sorted union of id arrays (a pass over a per-id mask: numpy's unique hashes, slower here)."""
        seen = self._seen
        for a in arrays:
            seen[a] = True
        out = np.flatnonzero(seen[: self._n])
        seen[out] = False
        return out
