"""Precomputed label sets that answer a `MemoryFilter` without parsing JSON per row.

The SQL filter (`MemoryFilter.sql`) parses every row's JSON columns, which
dominated filtered searches at 100k memories. This index keeps, for every
label a filter can name (`filter_labels.py`: `task` value, each `context` / `insights` / `tags`
element, each top-level metadata key's scalar values, array elements and
object members too, as `json_each` sees them, and which keys are non-null),
the key hashes carrying it, as a sorted uint64 array. `candidates(conn, flt)`
intersects those arrays: the same answer as the SQL filter (tests compare
them), in time proportional to the label sets, not to the store.

Families are read lazily: the first query naming a family (a metadata key, or one of the
columns) reads that family alone from the table, in one SQL scan (`filter_labels.family_rows`),
and from then on the writer's notes keep it. A store whose queries filter on `branch` never holds
the labels of its other metadata keys (per-commit shas, times), which were most of the index's
memory and of its first build (0.85 s at 14,900 project-memory commits when every label was read).

Freshness: the writer (`Memories`) reports its own writes, updates and
deletes with `note_*` and the memories revision they moved (`memory_revision.py`);
a change the index did not apply (another store object, in another process)
shows as a revision it does not reflect and makes the next `candidates` rebuild
from the table (the families in use, one scan each). Writes on this store's
other threads, through their own connections, are applied, not rebuilt. Each call checks the revision
and reads any family it needs inside one read snapshot (`memory_revision.snapshot`), so a commit
landing between the check and a read cannot put a later state into one family beside an earlier one
in the others. `reset()` forgets everything (the writer calls it when a
transaction rolls back). `followers` (e.g. the store's `KeywordIndex`) get the
same three notes, so other in-memory indexes stay in step without more hooks
in the writer.
"""
from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable
from typing import Any

import numpy as np

from reference.tracker.filter_labels import Family, Label, family_of, family_rows, scalar
from reference.tracker.filters import MemoryFilter
from reference.tracker.memory_revision import Reflected, snapshot

_EMPTY = np.zeros(0, dtype=np.uint64)
_MAX_ANSWERS = 256


def _intersect_sorted(small: np.ndarray, big: np.ndarray) -> np.ndarray:
    """Intersection of two sorted unique arrays: the smaller looked up in the larger (no sort)."""
    if big.size == 0:
        return _EMPTY
    pos = np.minimum(np.searchsorted(big, small), big.size - 1)
    return small[big[pos] == small]


class FilterIndex:
    """Label -> key hashes of the memories table, kept in memory (see module docstring)."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._sets: dict[Label, set[int]] = {}
        self._arrays: dict[Label, np.ndarray] = {}
        self._of: dict[Family, dict[int, tuple[Label, ...]]] = {}   # per family read: key hash -> its labels
        self._reflected = Reflected()
        self._answers: dict[str, np.ndarray] = {}
        self.followers: list = []  # objects with note_write(key_hash, labels, rev), note_delete(key_hash, rev), reset()
        # the tracker's `MemoriesTable`, whose `check_whole` refuses a filter while a row is damaged
        # (issue 25: a damaged row's labels cannot be trusted); set by the layer that owns both
        self.table: Any = None

    # -- maintenance -------------------------------------------------------------
    def reset(self) -> None:
        for f in self.followers:
            f.reset()
        self._clear()

    def _clear(self) -> None:
        with self._lock:
            self._sets, self._arrays, self._of = {}, {}, {}
            self._reflected.forget()
            self._answers = {}

    def note_write(self, key_hash: int, labels: tuple[Label, ...], rev: int | None = None) -> None:
        """A memory was inserted (or its labels replaced) by the change that moved the revision to `rev`."""
        for f in self.followers:
            f.note_write(key_hash, labels, rev)
        with self._lock:
            self._reflected.noted(rev)
            if not self._of:
                return
            self._drop(key_hash)
            mine: dict[Family, list[Label]] = {}
            for lab in labels:
                fam = family_of(lab)
                if fam in self._of:   # a family not read yet will read this row from the table
                    mine.setdefault(fam, []).append(lab)
            for fam, labs in mine.items():
                self._add(fam, key_hash, tuple(labs))

    def note_delete(self, key_hash: int, rev: int | None = None) -> None:
        for f in self.followers:
            f.note_delete(key_hash, rev)
        with self._lock:
            self._reflected.noted(rev)
            self._drop(key_hash)

    def _add(self, fam: Family, key_hash: int, labels: tuple[Label, ...]) -> None:
        self._of[fam][key_hash] = labels
        for lab in labels:
            self._sets.setdefault(lab, set()).add(key_hash)
            self._arrays.pop(lab, None)

    def _drop(self, key_hash: int) -> None:
        self._answers.clear()
        for of in self._of.values():
            for lab in of.pop(key_hash, ()):
                self._sets[lab].discard(key_hash)
                self._arrays.pop(lab, None)

    def _read(self, conn: sqlite3.Connection, fam: Family) -> None:
        self._of[fam] = {}
        for kh, labels in family_rows(conn, fam):
            self._add(fam, kh, labels)

    def _fresh(self, conn: sqlite3.Connection) -> None:
        """Drop everything after a change the index missed (`_array` then reads families afresh)."""
        reflects, rev = self._reflected.check(conn)
        if not reflects:
            self._clear()
            self._reflected.built(rev)

    # -- reading -----------------------------------------------------------------
    def _array(self, conn: sqlite3.Connection, lab: Label) -> np.ndarray:
        """The sorted key hashes carrying `lab`, its family read from the table first if not held yet."""
        arr = self._arrays.get(lab)
        if arr is None:
            if family_of(lab) not in self._of:
                self._read(conn, family_of(lab))
            s = self._sets.get(lab)
            arr = np.sort(np.fromiter(s, dtype=np.uint64, count=len(s))) if s else _EMPTY
            self._arrays[lab] = arr
        return arr

    def labelled_many(self, conn: sqlite3.Connection, labels: Iterable[Label]) -> list[np.ndarray]:
        """Per label (e.g. ("str", "memory_type", "decision")), the key hashes (sorted uint64) of the memories
        carrying it, all read from one state of the table (one check, one snapshot)."""
        with self._lock, snapshot(conn):
            self._fresh(conn)
            return [self._array(conn, tuple(lab)) for lab in labels]

    def candidates(self, conn: sqlite3.Connection, flt: MemoryFilter) -> np.ndarray:
        """Key hashes (sorted, unique uint64) of the memories passing `flt`.

        Answers are kept until the next change (filters repeat: one per task x context pair) and
        handed out read-only, the same array each time, so callers can key their own caches on it.
        """
        if self.table is not None:
            self.table.check_whole()
        key = repr(flt)  # a frozen dataclass of str, tuples and JSON values: equal reprs, equal filters
        with self._lock, snapshot(conn):
            self._fresh(conn)
            hit = self._answers.get(key)
            if hit is None:
                hit = self._answer(conn, flt).copy()
                hit.setflags(write=False)
                if len(self._answers) >= _MAX_ANSWERS:
                    self._answers.clear()
                self._answers[key] = hit
            return hit

    def _answer(self, conn: sqlite3.Connection, flt: MemoryFilter) -> np.ndarray:
        parts: list[np.ndarray] = []
        if flt.task is not None:
            parts.append(self._array(conn, ("task", flt.task)))
        for field, values in (("context", flt.context), ("insights", flt.insights), ("tags", flt.tags)):
            parts += [self._array(conn, (field, v)) for v in values]
        for key, values in sorted((flt.where_metadata or {}).items()):
            parts.append(self._metadata(conn, key, values))
        if not parts:
            return self._array(conn, ("all",))
        parts.sort(key=len)
        out = parts[0]
        for p in parts[1:]:
            if out.size == 0:
                break
            out = _intersect_sorted(out, p)
        return out

    def _metadata(self, conn: sqlite3.Connection, key: str, values: list[Any]) -> np.ndarray:
        arrays = [self._array(conn, ("meta", key, scalar(v))) for v in values if v is not None]
        if any(v is None for v in values):
            arrays.append(np.setdiff1d(self._array(conn, ("all",)), self._array(conn, ("present", key)),
                                       assume_unique=True))
        if not arrays:
            return _EMPTY
        return arrays[0] if len(arrays) == 1 else np.unique(np.concatenate(arrays))


__all__ = ["FilterIndex", "Label"]
