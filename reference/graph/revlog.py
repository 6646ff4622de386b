"""The revision log `r:<rev>`: one record per write, for `At.ts` lookups and `diff_since`.

Body: ts f64 | op u8 | overwrite u8 | run_id | task_id | subject, where each
string is u16 length + UTF-8 (length 0xFFFF = None) and the subject is
`id u64` (put_node), `src u64 rel u32 dst u64` (edges, supersede) or the KV path.
"""
from __future__ import annotations

import struct

from reference.graph.codec import frame, unframe
from reference.graph.errors import CorruptRecord
from reference.graph.keyspace import LOG, u32
from reference.graph.records import OPS

_HEAD = struct.Struct("<dBB")
_LEN = struct.Struct("<H")
_NONE = 0xFFFF
NODE_SUBJECT = struct.Struct("<Q")
EDGE_SUBJECT = struct.Struct("<QIQ")
OP_CODES = {name: i + 1 for i, name in enumerate(OPS)}


def log_key(rev: int) -> bytes:
    return LOG + u32(rev)


def _text(s: str | None) -> bytes:
    if s is None:
        return _LEN.pack(_NONE)
    raw = s.encode()
    if len(raw) >= _NONE:
        raise ValueError(f"run/task id of {len(raw)} bytes is too long for the log (max {_NONE - 1})")
    return _LEN.pack(len(raw)) + raw


def encode(rev: int, ts: float, op: str, overwrite: bool, run_id: str | None, task_id: str | None,
           subject: bytes) -> bytes:
    body = _HEAD.pack(ts, OP_CODES[op], overwrite) + _text(run_id) + _text(task_id) + subject
    return frame(log_key(rev), body)


def read_ts(rev: int, value: bytes) -> float:
    body = unframe(log_key(rev), value, "revision log entry")
    return _HEAD.unpack_from(body)[0]


def decode(rev: int, value: bytes) -> tuple[float, str, bool, str | None, str | None, bytes]:
    """(ts, op, overwrite, run_id, task_id, subject bytes) of log entry `rev`."""
    key = log_key(rev)
    body = unframe(key, value, "revision log entry")
    try:
        ts, code, overwrite = _HEAD.unpack_from(body)
        pos = _HEAD.size
        texts: list[str | None] = []
        for _ in range(2):
            (n,) = _LEN.unpack_from(body, pos)
            pos += 2
            if n == _NONE:
                texts.append(None)
            else:
                texts.append(bytes(body[pos:pos + n]).decode())
                pos += n
        if not 1 <= code <= len(OPS):
            raise IndexError(f"op code {code}")
        op = OPS[code - 1]
    except (struct.error, IndexError, UnicodeDecodeError) as exc:
        raise CorruptRecord(f"revision log entry at LMDB key {key!r}: bad body ({exc})") from None
    return ts, op, bool(overwrite), texts[0], texts[1], bytes(body[pos:])
