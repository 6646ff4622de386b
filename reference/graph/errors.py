"""Named errors and warnings of the graph layer (seed 003 §4.8).

All derive from the shared hierarchy in `reference.errors`, so a caller can
catch `StoreError` (bad request) or `CorruptData` (bad bytes) as a whole.
"""
from __future__ import annotations

from reference.errors import CorruptData, KeyCollision, NotFound, StoreError

__all__ = [
    "CorruptAdjacency",
    "CorruptData",
    "CorruptRecord",
    "CorruptSnapshot",
    "InvalidPayload",
    "InvalidRelation",
    "KeyCollision",
    "MapFull",
    "NotFound",
    "ReadOnly",
    "RevisionOutOfRange",
    "StoreClosed",
    "StoreError",
    "TimeWentBackwards",
    "TombstoneWarning",
    "UnsupportedFormat",
]


class InvalidRelation(StoreError, ValueError):
    """A relation name or id that is not in the intern table (hard error)."""


class InvalidPayload(StoreError, ValueError):
    """A payload that is not plain JSON (dict/list/str/number/bool/None, finite floats)."""


class RevisionOutOfRange(StoreError, ValueError):
    """A point in time after the store's newest revision, or before revision 0."""


class TimeWentBackwards(StoreError, ValueError):
    """An explicit `ts` earlier than the store's last recorded write."""


class MapFull(StoreError):
    """The LMDB map filled up inside a batch; the batch was rolled back and the map grown."""


class ReadOnly(StoreError):
    """A write to a store opened with `readonly=True`."""


class StoreClosed(StoreError):
    """An operation on a store that has been closed."""


class UnsupportedFormat(CorruptData):
    """Stored bytes carry a format version this code does not know."""


class CorruptRecord(CorruptData):
    """A node, edge, key-value, key or log record fails its checksum or framing."""


class CorruptAdjacency(CorruptData):
    """A packed adjacency list fails its checksum, length or field checks."""


class CorruptSnapshot(CorruptData):
    """A snapshot file fails its header, bounds or checksum checks."""


class TombstoneWarning(UserWarning):
    """Tombstones pile up in an adjacency list that is not being compacted."""
