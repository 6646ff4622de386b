"""Which rows of `VectorCache` a search considers: live rows by tag, or the live rows of given keys.

A mixin: the cache owns the row arrays (`_live`, `_tags`, `_keys`) and the caches these
fill (`_selections`, dropped whenever rows are added).
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

ALLOWED_KEPT = 32   # allowed-key arrays whose rows are kept (one per recent filter: tasks x contexts)
KEPT_BYTES = 256 << 20   # gathered rows kept for them, at most (and at most as many rows as the cache holds)
_PER_ALLOWED = ("allowed", "matrix")   # cache entries kept per allowed array (dropped together)


def tag_key(tags: Sequence[int] | None) -> tuple[int, ...] | None:
    """`tags` as the key of the cache's per-selection caches: sorted, unique; None for every tag."""
    return None if tags is None else tuple(sorted({int(t) for t in tags}))


class RowSelections:
    """Row selections for `VectorCache` (attributes and helpers are the cache's)."""

    def _selection(self, tags: Sequence[int] | None) -> tuple[np.ndarray, np.ndarray | None]:
        """(live rows carrying one of `tags` (any when None), the other rows or None when those are
        the majority), kept until rows are added."""
        key = tag_key(tags)
        hit = self._selections.get(key)
        if hit is None:
            mask = self._tag_mask(key)
            rows = np.flatnonzero(mask)
            hit = (rows, np.flatnonzero(~mask) if rows.size * 2 >= self._n else None)
            self._selections[key] = hit
        return hit

    def _tag_mask(self, key: tuple[int, ...] | None) -> np.ndarray:
        """Per row so far: live and carrying one of the tags in `key` (any tag when None)."""
        mask = self._live[: self._n]
        if key is None:
            return mask
        wanted = np.zeros(256, dtype=bool)  # a lookup table: np.isin sorts, 4x slower at 100k rows
        wanted[[t for t in key if 0 <= t < 256]] = True
        return mask & wanted[self._tags[: self._n]]

    def _allowed_rows(self, allowed: np.ndarray, tags: Sequence[int] | None) -> np.ndarray:
        """Live rows (ascending) of the `allowed` keys that carry one of `tags`.

        The store's filter index hands out the same array for the same filter until the next write,
        so the rows of the last few arrays are kept (by identity, holding the array so its id cannot
        be reused) until rows are added: mapping 4k keys costs about 0.3-0.5 ms at 100k rows."""
        key = ("allowed", id(allowed), tag_key(tags))
        hit = self._selections.get(key)
        if hit is not None and hit[0] is allowed:
            return hit[1]
        rows = self._rows_of_allowed(allowed, tags)
        if isinstance(allowed, np.ndarray) and not allowed.flags.writeable:
            if sum(1 for k in self._selections if k and k[0] == "allowed") >= ALLOWED_KEPT:
                self._selections = {k: v for k, v in self._selections.items() if not (k and k[0] in _PER_ALLOWED)}
            self._selections[key] = (allowed, rows)
        return rows

    def _allowed_scores(self, allowed: np.ndarray, tags: Sequence[int] | None, rows: np.ndarray,
                        q: np.ndarray) -> np.ndarray:
        """`_scores_of(rows, q)` for `rows = _allowed_rows(allowed, tags)`, from a kept copy of those rows.

        Gathering ~4k scattered rows from the mapping cost ~1.1 ms per filtered query at 100k rows
        (after a full scan has flushed the caches) against ~0.25 ms for scoring a contiguous copy; the
        gather makes that copy anyway, so keeping it costs memory only. Kept like the rows (same key,
        same life: until rows are added), for read-only `allowed` arrays on the gather path, at most
        as many rows in all as the cache holds and KEPT_BYTES (at most one more copy of the matrix).
        The scores are the same bits: `_dot`'s einsum over the same contiguous rows in the same order."""
        if rows.size * 3 >= self._n or not (isinstance(allowed, np.ndarray) and not allowed.flags.writeable):
            return self._scores_of(rows, q)
        key = ("matrix", id(allowed), tag_key(tags))
        hit = self._selections.get(key)
        if hit is not None and hit[0] is allowed:
            return np.einsum("ij,j->i", hit[1], q)
        mat = self._recent.gather(rows, self._n, self._matrix)   # `_scores_of`'s own gather: a fresh copy
        room = min(self._n, KEPT_BYTES // max(mat.shape[1] * mat.itemsize, 1))
        if rows.size > room:
            return np.einsum("ij,j->i", mat, q)
        held = [k for k in self._selections if k and k[0] == "matrix"]
        while held and sum(self._selections[k][1].shape[0] for k in held) + rows.size > room:
            del self._selections[held.pop(0)]   # the oldest first
        self._selections[key] = (allowed, mat)
        return np.einsum("ij,j->i", mat, q)

    def _rows_of_allowed(self, allowed: np.ndarray, tags: Sequence[int] | None) -> np.ndarray:
        keys = np.asarray(allowed, dtype=np.uint64).reshape(-1)
        if keys.size > 1 and not (keys[1:] > keys[:-1]).all():
            keys = np.unique(keys)
        rows, _ = self._rows_for(keys)
        if tags is not None:
            rows = rows[np.isin(self._tags[rows], np.asarray(list(tags), dtype=np.uint8))]
        return np.sort(rows)
