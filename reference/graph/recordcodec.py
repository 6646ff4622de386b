"""Binary bodies of node, edge and KV records (inside the common frame of codec.py).

Each body is a fixed struct, then the lengths of its strings (u16 each, 0xFFFF
meaning None), then the strings' UTF-8 bytes, then the payload as canonical
JSON taking the rest of the body (absent when flag bit 1 is 0: payload None).
All integers and floats little-endian.

    node  created_ts f64 | updated_ts f64 | rev u32 | created_rev u32 | flags u8 |
          6 lengths | id, type, scope, run_id, task_id, superseded_by | payload
    edge  created_ts f64 | updated_ts f64 | rev u32 | created_rev u32 | flags u8 |
          2 lengths | run_id, task_id | payload              (flag bit 0 = deleted)
    kv    ts f64 | rev u32 | flags u8 | 2 lengths | run_id, task_id | payload  (bit 0 = deleted)

Decoded records are plain dicts with the field names of `records.Node`,
`records.Edge` and `records.KVEntry` (minus the subject fields the key holds).
"""
from __future__ import annotations

import json
import struct
from typing import Any

from reference.graph.codec import dumps
from reference.graph.errors import CorruptRecord

NONE = 0xFFFF
DELETED, HAS_PAYLOAD = 1, 2
_NODE = struct.Struct("<ddIIB6H")
_EDGE = struct.Struct("<ddIIB2H")
_KV = struct.Struct("<dIB2H")
_NO_TEXTS = [NONE, NONE]
_NODE_TEXT = ("id", "type", "scope", "run_id", "task_id", "superseded_by")


def _raw(s: str | None) -> tuple[int, bytes]:
    if s is None:
        return NONE, b""
    raw = s.encode()
    if len(raw) >= NONE:
        raise ValueError(f"string of {len(raw)} bytes is too long to store (max {NONE - 1}): {s[:40]!r}...")
    return len(raw), raw


def pack_texts(*texts: str | None) -> tuple[list[int], bytes]:
    """(lengths, concatenated UTF-8) of the strings, None as length 0xFFFF."""
    if texts == (None, None):
        return _NO_TEXTS, b""
    pairs = [_raw(s) for s in texts]
    return [n for n, _ in pairs], b"".join(raw for _, raw in pairs)


def unpack_texts(body: bytes, pos: int, lengths: tuple[int, ...]) -> tuple[list[str | None], int]:
    out: list[str | None] = []
    for size in lengths:
        if size == NONE:
            out.append(None)
        else:
            out.append(body[pos:pos + size].decode())
            pos += size
    if pos > len(body):
        raise ValueError("strings run past the end of the record")
    return out, pos


def _payload(body: bytes, pos: int, flags: int) -> Any:
    if not flags & HAS_PAYLOAD:
        if pos != len(body):
            raise ValueError("bytes after a record without payload")
        return None
    return json.loads(body[pos:].decode())


def _flags(payload: Any, deleted: bool = False) -> int:
    return (DELETED if deleted else 0) | (0 if payload is None else HAS_PAYLOAD)


def _tail(payload: Any) -> bytes:
    return b"" if payload is None else dumps(payload)


def encode_node(d: dict) -> bytes:
    lengths, texts = pack_texts(*(d[k] for k in _NODE_TEXT))
    return (_NODE.pack(d["created_ts"], d["updated_ts"], d["rev"], d["created_rev"], _flags(d["payload"]), *lengths)
            + texts + _tail(d["payload"]))


def encode_edge(d: dict) -> bytes:
    lengths, texts = pack_texts(d["run_id"], d["task_id"])
    return (_EDGE.pack(d["created_ts"], d["updated_ts"], d["rev"], d["created_rev"],
                       _flags(d["payload"], d["deleted"]), *lengths) + texts + _tail(d["payload"]))


def encode_kv(d: dict) -> bytes:
    lengths, texts = pack_texts(d["run_id"], d["task_id"])
    return _KV.pack(d["ts"], d["rev"], _flags(d["payload"], d["deleted"]), *lengths) + texts + _tail(d["payload"])


def decode_node(body: bytes) -> dict:
    created_ts, updated_ts, rev, created_rev, flags, *lengths = _NODE.unpack_from(body)
    (nid, typ, scope, run_id, task_id, sup), pos = unpack_texts(body, _NODE.size, lengths)
    return {"id": nid, "type": typ, "payload": _payload(body, pos, flags), "scope": scope,
            "created_ts": created_ts, "updated_ts": updated_ts, "rev": rev, "created_rev": created_rev,
            "run_id": run_id, "task_id": task_id, "superseded_by": sup}


def decode_edge(body: bytes) -> dict:
    created_ts, updated_ts, rev, created_rev, flags, *lengths = _EDGE.unpack_from(body)
    (run_id, task_id), pos = unpack_texts(body, _EDGE.size, lengths)
    return {"payload": _payload(body, pos, flags), "created_ts": created_ts, "updated_ts": updated_ts,
            "rev": rev, "created_rev": created_rev, "run_id": run_id, "task_id": task_id,
            "deleted": bool(flags & DELETED)}


def decode_kv(body: bytes) -> dict:
    ts, rev, flags, *lengths = _KV.unpack_from(body)
    (run_id, task_id), pos = unpack_texts(body, _KV.size, lengths)
    return {"payload": _payload(body, pos, flags), "ts": ts, "rev": rev, "run_id": run_id, "task_id": task_id,
            "deleted": bool(flags & DELETED)}


CODECS = {"node": (encode_node, decode_node), "edge": (encode_edge, decode_edge), "kv entry": (encode_kv, decode_kv)}


def decode(what: str, key: bytes, body: bytes) -> dict:
    try:
        return CODECS[what][1](body)
    except (struct.error, ValueError) as exc:
        raise CorruptRecord(f"{what} at LMDB key {key!r}: bad body ({exc})") from None
