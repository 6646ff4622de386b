"""Growable postings: per term, the rows holding it, how often, and each row's length (appends amortised O(1)).

A row's length never changes (a document is added whole), so it is stored with
each posting: BM25's length normalisation then reads contiguous arrays instead
of gathering lengths by row (at 100k rows a common term's postings are ~80k long).

Appends go to Python lists and reach the arrays when they are next read: a first
build of 100k memories makes ~2.2M appends, and three numpy item writes each cost
~3 µs where a list append costs ~0.1 µs; a search reads only its query's terms.
A batch of rows (`LexicalIndex.add_many`: a first build, a batch write) comes as
arrays instead and is copied in at once (`extend`). Read-only arrays given to an
empty list are not copied at all but kept as they are (`add_many` hands each term
read-only slices of its batch's arrays: a first build at 100k makes ~200k terms);
the next append copies them out before writing, as any full array is grown.
"""
from __future__ import annotations

import numpy as np


class Postings:
    """One term's (row, term frequency) pairs in row order; `rows()` / `tfs()` are views of the filled part."""

    __slots__ = ("_rows", "_tfs", "_lens", "_filled", "_pending", "n", "live")

    def __init__(self) -> None:
        # no arrays of its own until its first entries arrive: most terms get theirs from `extend`
        self._rows, self._tfs, self._lens = _NO_ROWS, _NO_FLOATS, _NO_FLOATS
        self._filled = 0                     # entries in the arrays
        self._pending: list[tuple[int, float, float]] | None = None   # entries appended since (see module doc)
        self.n = 0          # filled entries (dead rows included)
        self.live = 0       # entries whose row is alive: the document frequency

    def append(self, row: int, tf: int, length: float = 0.0) -> None:
        if self._pending is None:
            self._pending = []
        self._pending.append((row, tf, length))
        self.n += 1
        self.live += 1

    def extend(self, rows: np.ndarray, tfs: np.ndarray, lengths: np.ndarray) -> None:
        """`append` of each (row, tf, length) in order, copied into the arrays at once (`LexicalIndex.add_many`).

        An empty list keeps read-only arrays of its own dtypes (int32 rows, float64 tfs and lengths) as they
        are, without a copy: read-only, nobody writes through them (writable ones could change under it)."""
        if self._pending:
            self._flush()
        if self._filled == 0 and _keepable(rows, np.int32) and _keepable(tfs) and _keepable(lengths):
            self._rows, self._tfs, self._lens = rows, tfs, lengths
            self._filled = len(rows)
        else:
            self._store(rows, tfs, lengths)
        self.n += len(rows)
        self.live += len(rows)

    def _flush(self) -> None:
        """Move the pending entries into the arrays."""
        pending, self._pending = self._pending, None
        self._store(*zip(*pending))

    def _store(self, rows, tfs, lens) -> None:
        """Write entries after the filled part (the arrays grown to at least double, as one append at a time did).

        The arrays are written only below their size: a view taken by `extend` is exactly full, so it is
        always copied out first."""
        if not len(rows):   # nothing to write (the shared empty arrays are read-only)
            return
        need = self._filled + len(rows)
        if need > self._rows.size:
            size = max(self._rows.size, 4)
            while size < need:
                size *= 2
            self._rows = _grown(self._rows, size, self._filled)
            self._tfs = _grown(self._tfs, size, self._filled)
            self._lens = _grown(self._lens, size, self._filled)
        self._rows[self._filled: need] = rows
        self._tfs[self._filled: need] = tfs
        self._lens[self._filled: need] = lens
        self._filled = need

    def rows(self) -> np.ndarray:
        if self._pending:
            self._flush()
        return self._rows[: self.n]

    def tfs(self) -> np.ndarray:
        if self._pending:
            self._flush()
        return self._tfs[: self.n]

    def lengths(self) -> np.ndarray:
        """The length of each posting's row (as given to `append`)."""
        if self._pending:
            self._flush()
        return self._lens[: self.n]


def _keepable(a: np.ndarray, dtype: type = np.float64) -> bool:
    """`a` can be kept without a copy: a read-only numpy array of `dtype`."""
    return isinstance(a, np.ndarray) and a.dtype == dtype and not a.flags.writeable


_NO_ROWS = np.empty(0, dtype=np.int32)   # every empty posting list's arrays, shared (full at size 0: never written)
_NO_FLOATS = np.empty(0, dtype=np.float64)
_NO_ROWS.flags.writeable = _NO_FLOATS.flags.writeable = False


def _grown(a: np.ndarray, size: int, filled: int) -> np.ndarray:
    out = np.empty(size, dtype=a.dtype)
    out[:filled] = a[:filled]
    return out
