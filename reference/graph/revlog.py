"""The revision log `r:<rev>`: one record per write, for `At.ts` lookups and `diff_since`.

Body: ts f64 | op u8 | overwrite u8 | 2 x u16 length | run_id | task_id | subject,
where a length of 0xFFFF means None, strings are UTF-8, and the subject is
`id u64` (put_node), `src u64 rel u32 dst u64` (edges, supersede) or the KV path.
"""
from __future__ import annotations

import struct

from reference.graph.codec import frame, unframe
from reference.graph.errors import CorruptRecord
from reference.graph.keyspace import LOG, u32
from reference.graph.records import OPS
from reference.graph.recordcodec import pack_texts, unpack_texts

_HEAD = struct.Struct("<dBB2H")
NODE_SUBJECT = struct.Struct("<Q")
EDGE_SUBJECT = struct.Struct("<QIQ")
OP_CODES = {name: i + 1 for i, name in enumerate(OPS)}


def log_key(rev: int) -> bytes:
    return LOG + u32(rev)


def encode(rev: int, ts: float, op: str, overwrite: bool, run_id: str | None, task_id: str | None,
           subject: bytes) -> bytes:
    lengths, texts = pack_texts(run_id, task_id)
    body = _HEAD.pack(ts, OP_CODES[op], overwrite, *lengths) + texts + subject
    return frame(log_key(rev), body)


def read_ts(rev: int, value: bytes) -> float:
    body = unframe(log_key(rev), value, "revision log entry")
    return _HEAD.unpack_from(body)[0]


def decode(rev: int, value: bytes) -> tuple[float, str, bool, str | None, str | None, bytes]:
    """(ts, op, overwrite, run_id, task_id, subject bytes) of log entry `rev`."""
    key = log_key(rev)
    body = unframe(key, value, "revision log entry")
    try:
        ts, code, overwrite, *lengths = _HEAD.unpack_from(body)
        texts, pos = unpack_texts(body, _HEAD.size, lengths)
        if not 1 <= code <= len(OPS):
            raise IndexError(f"op code {code}")
        op = OPS[code - 1]
    except (struct.error, IndexError, ValueError) as exc:
        raise CorruptRecord(f"revision log entry at LMDB key {key!r}: bad body ({exc})") from None
    return ts, op, bool(overwrite), texts[0], texts[1], body[pos:]
