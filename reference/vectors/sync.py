"""`RowSync`: `VectorCache`'s index of the rows in its files, kept in step with appends.

Key -> latest row, each row's tag and liveness (latest for its key and not a tombstone),
the rows that failed their checksum, and the sorted (key, row) index of live rows.
A mixin: it reads and writes the cache's own fields (`_files`, `_n`, `_keys`, `_tags`,
`_live`, `_latest`, `_mat`, `_sorted`, `_selections`, `_bitmaps`, `_recent`, `bad_rows`,
set in `VectorCache.__init__`), and callers hold the cache's lock.
"""
from __future__ import annotations

import numpy as np

from reference.errors import corrupt


class RowSync:
    """Index rows appended to the vector files (ours or another process's); see the module docstring."""

    def _sync_checked(self) -> None:
        """`_sync`, then refuse to answer if any row failed its checksum."""
        self._sync()
        if self.bad_rows:
            row, key = next(iter(self.bad_rows.items()))
            names = ", ".join(p.name for p in (self._files.rows_path, self._files.keys_path,
                                                 self._files.tags_path, self._files.sums_path))
            raise corrupt(f"{self.dir}/{{{names}}}", f"row {row} (key {key:#018x})",
                          f"fails its checksum ({len(self.bad_rows)} damaged row(s) in all)")

    def _sync(self, n_new: int | None = None) -> None:
        """Index rows appended since the last look (ours or another process's); `n_new`: the files' row
        count when the caller has just read it (with the lock held), else it is read here."""
        if n_new is None:
            n_new = self._files.count()
        if n_new <= self._n:
            return
        self._take(*self._files.read(self._n, n_new - self._n))

    def _take(self, keys: np.ndarray, rows: np.ndarray, tags: np.ndarray, ok: np.ndarray | None) -> None:
        """Index rows [n, n + len(keys)) of the files (`ok` False where a row failed its checksum; None: all good)."""
        n_new = self._n + len(keys)
        if ok is not None and not ok.all():
            for i in np.flatnonzero(~ok).tolist():
                self.bad_rows[self._n + i] = int(keys[i])
        tomb = ~rows.any(axis=1)
        self._grow(n_new)
        self._keys[self._n: n_new] = keys
        self._tags[self._n: n_new] = tags
        if self._n == 0:  # opening: build the index in C-speed steps (dict keeps each key's last row)
            self._latest = dict(zip(keys.tolist(), range(n_new)))
            self._live[np.fromiter(self._latest.values(), dtype=np.int64, count=len(self._latest))] = True
            self._live[:n_new] &= ~tomb
            self._n = n_new
            self._sorted = None
            self._selections, self._bitmaps = {}, {}
            return
        self._recent.appended(self._n, rows)
        start, died = self._n, []
        for i, key in enumerate(keys.tolist()):
            row = self._n + i
            old = self._latest.get(key)
            if old is not None:
                if old < start and self._live[old]:
                    died.append(old)
                self._live[old] = False
            self._latest[key] = row
            self._live[row] = not tomb[i]
        self._n = n_new
        self._sorted = None
        self._selections = {}
        self._extend_bitmaps(start, np.asarray(died, dtype=np.int64))

    def _grow(self, n: int) -> None:
        if n <= len(self._keys):
            return
        cap = max(n, 2 * len(self._keys), 1024)
        for name in ("_keys", "_tags", "_live"):
            old = getattr(self, name)
            new = np.zeros(cap, dtype=old.dtype)
            new[: len(old)] = old
            setattr(self, name, new)

    def _matrix(self) -> np.ndarray:
        if self._mat is None or self._mat.shape[0] != self._n:
            if self._n == 0:
                return np.zeros((0, self.dim), dtype=np.float32)
            self._mat = self._files.memmap(self._n)
        return self._mat

    def _index(self) -> tuple[np.ndarray, np.ndarray]:
        """(live keys ascending, their rows)."""
        if self._sorted is None:
            rows = np.flatnonzero(self._live[: self._n])
            keys = self._keys[rows]
            order = np.argsort(keys, kind="stable")
            self._sorted = (keys[order], rows[order])
        return self._sorted

    def _rows_for(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Rows of the given keys that are live, and a mask of which keys were found."""
        skeys, srows = self._index()
        if skeys.size == 0 or keys.size == 0:
            return np.zeros(0, dtype=np.int64), np.zeros(len(keys), dtype=bool)
        pos = np.minimum(np.searchsorted(skeys, keys), skeys.size - 1)
        found = skeys[pos] == keys
        return srows[pos[found]], found
