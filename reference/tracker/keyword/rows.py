"""FTS rowid -> the keyword index's internal row id: a sorted array from the build plus a dict of later rows.

The FTS rowid of a memory is its key hash (a signed 64-bit integer); the
index numbers rows 0, 1, 2... in the order it learns of them, so that
per-row arrays stay dense. An update gives a row a new internal id (the old
one is retired), so both parts can be re-pointed.
"""
from __future__ import annotations

import numpy as np


class RowIds:
    """rowid -> internal id (see module docstring)."""

    def __init__(self, rowids: np.ndarray | None = None) -> None:
        self._base = np.zeros(0, dtype=np.int64) if rowids is None else rowids  # rowids at build, ascending
        self._base_id = np.arange(self._base.size, dtype=np.int64)  # their current internal id
        self._extra: dict[int, int] = {}  # rowid -> id, for rows first seen after the build

    def get(self, rowid: int) -> int | None:
        pos = int(np.searchsorted(self._base, rowid))
        if pos < self._base.size and self._base[pos] == rowid:
            return int(self._base_id[pos])
        return self._extra.get(rowid)

    def set(self, rowid: int, new: int) -> None:
        pos = int(np.searchsorted(self._base, rowid))
        if pos < self._base.size and self._base[pos] == rowid:
            self._base_id[pos] = new
        else:
            self._extra[rowid] = new

    def of_known(self, rowids: np.ndarray) -> np.ndarray:
        """The ids of rowids that are all known (the FTS index's own rows)."""
        if self._base.size == 0:
            return np.asarray([self._extra[int(r)] for r in rowids], dtype=np.int64)
        pos = np.minimum(np.searchsorted(self._base, rowids), self._base.size - 1)
        found = self._base[pos] == rowids
        ids = self._base_id[pos]
        for i in np.flatnonzero(~found).tolist():
            ids[i] = self._extra[int(rowids[i])]
        return ids

    def of_any(self, rowids: np.ndarray) -> np.ndarray:
        """The id of each rowid, -1 where unknown."""
        out = np.full(rowids.size, -1, dtype=np.int64)
        if self._base.size:
            pos = np.minimum(np.searchsorted(self._base, rowids), self._base.size - 1)
            found = self._base[pos] == rowids
            out[found] = self._base_id[pos[found]]
        if self._extra:
            for i in np.flatnonzero(out < 0).tolist():
                out[i] = self._extra.get(int(rowids[i]), -1)
        return out
