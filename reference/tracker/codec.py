"""u64 key hashes in SQLite's signed 64-bit INTEGER columns.

`hash64` yields unsigned 64-bit values; SQLite integers are signed. Every
`key_hash` column (and the FTS rowids) stores the two's-complement signed
value; `to_db` / `from_db` convert at the boundary, so callers only ever see
the unsigned value.
"""
from __future__ import annotations

_U64 = 1 << 64
_I64_MAX = (1 << 63) - 1


def to_db(h: int) -> int:
    """Unsigned u64 -> the signed value stored in SQLite."""
    if not 0 <= h < _U64:
        raise ValueError(f"key hash {h} is not an unsigned 64-bit integer")
    return h - _U64 if h > _I64_MAX else h


def from_db(v: int) -> int:
    """Signed value read from SQLite -> unsigned u64."""
    return v + _U64 if v < 0 else v
