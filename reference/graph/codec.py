"""Byte-level encodings shared by the store: framed values, canonical JSON, varints.

Every LMDB value is framed as `version u8 | crc32 u32 LE | body`. The CRC
covers the LMDB key, the version byte and the body, so a flipped byte *and* a
value copied under the wrong key are both detected; a bad frame raises `CorruptRecord` (or the
`error` class the caller names) and is never decoded.
"""
from __future__ import annotations

import json
import math
import zlib
from typing import Any

from reference.graph.errors import CorruptRecord, InvalidPayload, UnsupportedFormat
from reference.json_depth import MAX_DEPTH, too_deep

FORMAT = 1
_FORMAT_BYTE = bytes([FORMAT])
_crc32 = zlib.crc32


def frame(key: bytes, body: bytes) -> bytes:
    """Wrap `body` for storage under LMDB key `key`."""
    return _FORMAT_BYTE + _crc32(body, _crc32(_FORMAT_BYTE, _crc32(key))).to_bytes(4, "little") + body


def unframe(key: bytes, value: bytes, what: str = "record", error: type[Exception] = CorruptRecord) -> bytes:
    """Check a framed value and return its body, or raise `error` naming `what` and the key."""
    if len(value) < 5:
        raise error(f"{what} at LMDB key {key!r}: value of {len(value)} bytes is shorter than its 5-byte frame")
    body = value[5:]
    if _crc32(body, _crc32(value[:1], _crc32(key))) != int.from_bytes(value[1:5], "little"):
        raise error(f"{what} at LMDB key {key!r}: checksum mismatch ({len(value)} bytes)")
    if value[0] != FORMAT:
        raise UnsupportedFormat(f"{what} at LMDB key {key!r}: format version {value[0]} (this code reads {FORMAT})")
    return body


def check_payload(obj: Any, where: str = "payload") -> None:
    """Raise `InvalidPayload` unless `obj` is plain JSON that round-trips unchanged (and nests at most
    `json_depth.MAX_DEPTH` levels, checked first, without recursion)."""
    if where == "payload" and too_deep(obj):
        raise InvalidPayload(f"payload nests deeper than {MAX_DEPTH} levels")
    _check_json(obj, where)


def _check_json(obj: Any, where: str) -> None:
    if obj is None or isinstance(obj, (str, bool, int)):
        return
    if isinstance(obj, float):
        if not math.isfinite(obj):
            raise InvalidPayload(f"{where}: float {obj!r} is not finite (JSON has no NaN/Infinity)")
        return
    if isinstance(obj, list):
        for i, item in enumerate(obj):
            _check_json(item, f"{where}[{i}]")
        return
    if isinstance(obj, dict):
        for k, v in obj.items():
            if not isinstance(k, str):
                raise InvalidPayload(f"{where}: dict key {k!r} is a {type(k).__name__}, JSON keys must be str")
            _check_json(v, f"{where}[{k!r}]")
        return
    raise InvalidPayload(
        f"{where}: {type(obj).__name__} is not JSON (use dict with str keys, list, str, int, float, bool or None)"
    )


_ENC = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def dumps(obj: Any) -> bytes:
    """Canonical JSON: sorted keys, no spaces, UTF-8, so equal content gives equal bytes."""
    return _ENC.encode(obj).encode()


def encode_varint(n: int) -> bytes:
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def decode_varint(buf: bytes | memoryview, pos: int) -> tuple[int, int]:
    """Return (value, next position); raise ValueError on a truncated or over-long varint."""
    result = shift = 0
    while True:
        if pos >= len(buf) or shift > 63:
            raise ValueError("truncated or over-long varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7
