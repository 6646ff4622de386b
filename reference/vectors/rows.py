"""Rows of the vector cache for small gathers, without re-mapping `vectors.f32` after every append.

`VectorCache._matrix()` maps the whole file again whenever it has grown (one contiguous array
for the exact scan). For the index path, which reads about a thousand scattered rows per search,
that costs more than the search (measured at 100k rows: 0.12 ms to map, 0.11 ms to unmap the
old mapping, 0.4 ms of page faults on the first gather from the fresh one). `RecentRows` keeps one
mapping (a plain ndarray view) across appends and holds the rows appended since in memory: the
cache hands it the rows it has just read and verified in `_sync`, which are the file's bytes.
After `TAIL_ROWS` appended rows (or a gap) it maps the file again.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

TAIL_ROWS = 8_192   # rows held in memory past the mapping (8 MB at 256 dimensions) before mapping again


class RecentRows:
    """A mapping of rows [0, base_n) kept across appends, plus rows [base_n, base_n + tail_n) in memory."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.base: np.ndarray | None = None
        self.base_n = self.tail_n = 0
        self.tail = np.zeros((0, dim), dtype=np.float32)

    def appended(self, start: int, rows: np.ndarray) -> None:
        """Rows [start, start + len(rows)) were just read from the file."""
        if self.base is None:
            return
        if start != self.base_n + self.tail_n or self.tail_n + len(rows) > TAIL_ROWS:
            self.base = None   # map again on the next gather
            return
        if self.tail.shape[0] < self.tail_n + len(rows):
            grown = np.zeros((min(TAIL_ROWS, max(2 * self.tail.shape[0], self.tail_n + len(rows), 64)), self.dim),
                             dtype=np.float32)
            grown[: self.tail_n] = self.tail[: self.tail_n]
            self.tail = grown
        self.tail[self.tail_n: self.tail_n + len(rows)] = rows
        self.tail_n += len(rows)

    def _fresh(self, n: int, matrix: Callable[[], np.ndarray]) -> None:
        if self.base is None or self.base_n + self.tail_n != n:
            self.base, self.base_n, self.tail_n = np.asarray(matrix()), n, 0

    def gather(self, rows: np.ndarray, n: int, matrix: Callable[[], np.ndarray]) -> np.ndarray:
        """Copies of the given rows (all below `n`, the cache's row count); `matrix()` maps the file."""
        self._fresh(n, matrix)
        rows = np.asarray(rows, dtype=np.int64)
        if rows.size == 1:   # one row (a single write's query): no masks
            r = int(rows[0])
            return (self.base[r] if r < self.base_n else self.tail[r - self.base_n]).reshape(1, -1).copy()
        if self.tail_n == 0 or rows.size == 0 or int(rows.max()) < self.base_n:
            return self.base[rows]
        out = np.empty((rows.size, self.dim), dtype=np.float32)
        old = rows < self.base_n
        out[old] = self.base[rows[old]]
        out[~old] = self.tail[rows[~old] - self.base_n]
        return out

    def pieces(self, n: int, matrix: Callable[[], np.ndarray]) -> list[np.ndarray]:
        """Rows [0, n) as views in order: the mapping, then the rows held in memory (no copy)."""
        self._fresh(n, matrix)
        return [self.base, self.tail[: self.tail_n]] if self.tail_n else [self.base]

    def span(self, start: int, stop: int, n: int, matrix: Callable[[], np.ndarray]) -> np.ndarray:
        """Rows [start, stop) (a view where they are all mapped, else a copy)."""
        self._fresh(n, matrix)
        if stop <= self.base_n:
            return self.base[start:stop]
        return self.gather(np.arange(start, stop), n, matrix)
