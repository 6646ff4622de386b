"""The half of `VectorCache`'s search that goes through its quantized index (`vectors/index.py`).

A mixin: `VectorCache` owns the rows, the lock and the row selections; this part
decides when the index answers (`_use_index`), keeps one faiss bitmap per tag
selection (dropped with the selections whenever rows are added), and turns the
index's candidates into `topk`'s answer by scoring them exactly with the cache's
own `_scores_of` and ranking them with its `_best`: the same cosines, bit for bit,
and the same tie rules as the exact path, among the candidates.
"""
from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from reference.vectors import index as vector_index
from reference.vectors import kernel as vector_kernel
from reference.vectors.selection import tag_key


class IndexedSearch:
    """Index-backed search for `VectorCache` (attributes and helpers are the cache's)."""

    def candidate_rows(self, query_vec: np.ndarray, count: int, *, tags: Sequence[int] | None = None,
                       hidden: np.ndarray | None = None) -> np.ndarray | None:
        """Rows (ascending, for `snapshot`'s matrix) of about the `count` live rows carrying one of
        `tags` nearest the query, from the quantized index, leaving out the `hidden` rows.

        None when the index is not in use (below its threshold, too few rows qualify, or a zero
        query, for which every row ties): then the caller scans exactly. Scores are the caller's to compute exactly.
        """
        found = self.candidate_rows_many(self._query(query_vec)[None, :], count, tags=tags, hidden=hidden)
        return None if found is None else found[0]

    def candidate_rows_many(self, queries: np.ndarray, count: int, *, tags: Sequence[int] | None = None,
                            hidden: np.ndarray | None = None) -> list[np.ndarray] | None:
        """`candidate_rows` of several unit queries (rows of `queries`) in one scan of the index, the same
        `hidden` rows left out for all; None when the index is not in use or a query is zero."""
        queries = np.ascontiguousarray(queries, dtype=np.float32)
        with self._lock:
            self._sync_checked()
            if not (self._index_ready() and queries.any(axis=1).all()):
                return None
            bitmap, qualifying = self._bitmap(tags)
            if not self._use_index(qualifying, count):
                return None
            if hidden is not None and len(hidden):
                bitmap = bitmap.copy()
                h = np.asarray(hidden, dtype=np.int64)
                if h.size == 1:   # a single write hides its own row (ufunc.at costs more than the rest)
                    bitmap[h[0] >> 3] &= np.uint8(255 ^ (1 << int(h[0] & 7)))
                else:
                    np.bitwise_and.at(bitmap, h >> 3, np.uint8(255) ^ (1 << (h & 7)).astype(np.uint8))
            return [np.sort(r) for r in self._quantized_index().search(queries, count, bitmap)]

    def scan_products(self, queries: np.ndarray) -> np.ndarray:
        """Approximate float32 dot products (len(queries), rows so far) of each query with every row,
        live or not (`live_tagged` says which count), see `kernel.py`.

        For choosing candidates only (the products' last bits depend on the kernel): re-score the chosen
        rows exactly from `rows_at`. Reads the rows through the mapping kept across appends (`RecentRows`),
        not a fresh `np.memmap` per call."""
        with self._lock:
            self._sync_checked()
            return vector_kernel.products(queries, self._recent.pieces(self._n, self._matrix))

    def live_tagged(self, rows: np.ndarray | None, tags: Sequence[int] | None = None) -> np.ndarray:
        """Per given row (every row so far when None): live (its key's latest, not a tombstone) and
        carrying one of `tags` (any if None). Only the rows asked about are read: a caller with the few
        candidates of a large scan pays for those."""
        with self._lock:
            if rows is None:
                return self._tag_mask(tag_key(tags)).copy()
            rows = np.asarray(rows, dtype=np.int64)
            ok = self._live[rows]
            if tags is not None:
                ok &= _tag_table(tag_key(tags))[self._tags[rows]]
            return ok

    def products_at(self, query: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Approximate float32 dot products of a unit query with the given rows, read in place
        (`vector_kernel.products_at`: for choosing candidates; re-score them from `rows_at`)."""
        with self._lock:
            self._sync_checked()
            return vector_kernel.products_at(query, rows, self._recent.pieces(self._n, self._matrix))

    def rows_at(self, rows: np.ndarray) -> np.ndarray:
        """Float32 copies of the given rows (row numbers as `candidate_rows` and `rows_of` give them)."""
        with self._lock:
            self._sync_checked()
            return self._recent.gather(rows, self._n, self._matrix)

    def keys_at(self, rows: np.ndarray) -> np.ndarray:
        """The key hash of each given row."""
        with self._lock:
            return self._keys[np.asarray(rows, dtype=np.int64)]

    def _index_ready(self) -> bool:
        """The cache has reached the index's threshold (and faiss is there)."""
        least = vector_index.INDEX_MIN_ROWS if self.index_min_rows is None else self.index_min_rows
        return self._n >= vector_index.threshold(least) and vector_index.available()

    def _use_index(self, qualifying: int, count: int) -> bool:
        """The quantized index answers when the cache has reached its threshold and the rows that
        qualify are many (a few are gathered and scored exactly) and more than the candidates."""
        return self._index_ready() and qualifying > count and qualifying * 4 >= self._n

    def _topk_indexed(self, q: np.ndarray, k: int, bitmap: np.ndarray, with_ties: bool
                      ) -> tuple[np.ndarray, np.ndarray]:
        """`topk_arrays` among the index's candidates, re-scored exactly (same scores and tie rules)."""
        cand = np.sort(self._quantized_index().search(q[None, :], vector_index.oversample(k), bitmap)[0])
        # the exact path's `_scores_of` for a few rows: einsum over the gathered rows (same bytes, same sums)
        scores = np.einsum("ij,j->i", self._recent.gather(cand, self._n, self._matrix), q)
        return self._best(scores, cand, min(k, cand.size), with_ties)

    def _quantized_index(self) -> vector_index.QuantizedRows:
        """The quantized index, built on first use and extended by the rows appended since."""
        if self._quantized is None:
            least = vector_index.INDEX_MIN_ROWS if self.index_min_rows is None else self.index_min_rows
            self._quantized = vector_index.QuantizedRows(self.dim, vector_index.train_rows(least))
        self._quantized.catch_up(self._n, lambda a, b: self._recent.span(a, b, self._n, self._matrix))
        return self._quantized

    def _bitmap(self, tags: Sequence[int] | None) -> tuple[np.ndarray, int]:
        """(faiss bitmap of the live rows carrying one of `tags`, how many), kept up to date as rows are
        added (`_extend_bitmaps`): recomputing it costs about 0.2 ms at 100k rows, on every write."""
        key = tag_key(tags)
        hit = self._bitmaps.get(key)
        if hit is None:
            mask = self._tag_mask(key)
            packed = np.packbits(mask, bitorder="little")
            hit = self._bitmaps[key] = (packed, int(np.count_nonzero(mask)), packed)
        return hit[0], hit[1]

    def _extend_bitmaps(self, start: int, died: np.ndarray) -> None:
        """Rows [start, n) were just indexed and the rows `died` (below `start`) stopped being live.

        Each bitmap is the leading bytes of a buffer with room to grow (doubled when full, its bytes past
        the rows always zero), changed in place under the lock: a fresh copy per write cost ~34 us at 100k."""
        size = (self._n + 7) // 8
        for key, (bitmap, count, buf) in list(self._bitmaps.items()):
            if buf.size < size:
                grown = np.zeros(max(size, 2 * buf.size), dtype=np.uint8)
                grown[: bitmap.size] = bitmap
                buf = grown
            wanted = _tag_table(key)
            gone = died[wanted[self._tags[died]]]
            _set_bits(buf, gone, False)
            new = start + np.flatnonzero(self._live[start: self._n] & wanted[self._tags[start: self._n]])
            _set_bits(buf, new, True)
            self._bitmaps[key] = (buf[:size], count - gone.size + new.size, buf)


def _set_bits(buf: np.ndarray, rows: np.ndarray, on: bool) -> None:
    """Set (or clear) the little-endian bit of each row in a faiss bitmap (one row: no `ufunc.at`)."""
    if rows.size == 1:
        r = int(rows[0])
        bit = 1 << (r & 7)
        buf[r >> 3] = (int(buf[r >> 3]) | bit) if on else (int(buf[r >> 3]) & (255 ^ bit))
    elif rows.size:
        bits = (1 << (rows & 7)).astype(np.uint8)
        if on:
            np.bitwise_or.at(buf, rows >> 3, bits)
        else:
            np.bitwise_and.at(buf, rows >> 3, np.uint8(255) ^ bits)


@functools.lru_cache(maxsize=64)
def _tag_table(key: tuple[int, ...] | None) -> np.ndarray:
    """Per tag value 0-255: whether it is one of `key`'s tags (all when None); a lookup table, read-only
    (`np.isin` against 256 values cost about 30 us a write)."""
    wanted = np.ones(256, dtype=bool) if key is None else np.zeros(256, dtype=bool)
    if key is not None:
        wanted[[t for t in key if 0 <= t < 256]] = True
    wanted.flags.writeable = False
    return wanted
