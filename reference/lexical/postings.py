"""Growable postings: per term, the rows holding it, how often, and each row's length (appends amortised O(1)).

A row's length never changes (a document is added whole), so it is stored with
each posting: BM25's length normalisation then reads contiguous arrays instead
of gathering lengths by row (at 100k rows a common term's postings are ~80k long).
"""
from __future__ import annotations

import numpy as np


class Postings:
    """One term's (row, term frequency) pairs in row order; `rows()` / `tfs()` are views of the filled part."""

    __slots__ = ("_rows", "_tfs", "_lens", "n", "live")

    def __init__(self) -> None:
        self._rows = np.empty(4, dtype=np.int32)
        self._tfs = np.empty(4, dtype=np.float64)
        self._lens = np.empty(4, dtype=np.float64)
        self.n = 0          # filled entries (dead rows included)
        self.live = 0       # entries whose row is alive: the document frequency

    def append(self, row: int, tf: int, length: float = 0.0) -> None:
        if self.n == self._rows.size:
            self._rows = np.concatenate([self._rows, np.empty(self.n, dtype=np.int32)])
            self._tfs = np.concatenate([self._tfs, np.empty(self.n, dtype=np.float64)])
            self._lens = np.concatenate([self._lens, np.empty(self.n, dtype=np.float64)])
        self._rows[self.n] = row
        self._tfs[self.n] = tf
        self._lens[self.n] = length
        self.n += 1
        self.live += 1

    def rows(self) -> np.ndarray:
        return self._rows[: self.n]

    def tfs(self) -> np.ndarray:
        return self._tfs[: self.n]

    def lengths(self) -> np.ndarray:
        """The length of each posting's row (as given to `append`)."""
        return self._lens[: self.n]
