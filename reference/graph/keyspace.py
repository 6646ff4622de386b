"""LMDB key layout (seed 003 §4.3). Integers are big-endian so LMDB's byte order is numeric order.

    m:format, m:head                       meta: format version; head revision + last write ts
    ri:<name> / rn:<rel u32>               relation intern table, both directions
    k:<id u64>                             id intern table: the canonical key string of an id
    n:<id> / nh:<id><rev u32>              node: latest version / each earlier version
    e:<src><rel u32><dst> / eh:...<rev>    edge: latest version / each earlier version
    out:<src> / in:<dst>                   packed adjacency, hot part (see adjacency.py)
    oc:<src> / ic:<dst>                    packed adjacency, cold part moved out by compaction
    kv:<scope>\\0<namespace>\\0<key>         policy KV: latest version
    hist:<scope>\\0<namespace>\\0<key>\\0<rev> policy KV: each earlier version
    r:<rev u32>                            revision log: ts, op and subject of every write
"""
from __future__ import annotations

import struct

from reference.errors import InvalidKey

META_FORMAT = b"m:format"
META_HEAD = b"m:head"
REL_BY_NAME = b"ri:"
REL_BY_ID = b"rn:"
KEY = b"k:"
NODE = b"n:"
NODE_HIST = b"nh:"
EDGE = b"e:"
EDGE_HIST = b"eh:"
OUT = b"out:"
IN = b"in:"
OUT_COLD = b"oc:"
IN_COLD = b"ic:"
KV = b"kv:"
KV_HIST = b"hist:"
LOG = b"r:"

MAX_KEY = 500  # LMDB's default key limit is 511 bytes
_U64 = struct.Struct(">Q")
_U32 = struct.Struct(">I")
_EDGE = struct.Struct(">QIQ")
U32_MAX = 0xFFFFFFFF


def u64(n: int) -> bytes:
    return _U64.pack(n)


def u32(n: int) -> bytes:
    return _U32.pack(n)


def id_of(key: bytes, prefix: bytes) -> int:
    return _U64.unpack_from(key, len(prefix))[0]


def rev_suffix(key: bytes) -> int:
    return _U32.unpack_from(key, len(key) - 4)[0]


def edge_id(src: int, rel: int, dst: int) -> bytes:
    return _EDGE.pack(src, rel, dst)


def unpack_edge_id(key: bytes, prefix: bytes) -> tuple[int, int, int]:
    return _EDGE.unpack_from(key, len(prefix))


def kv_path(scope: str, namespace: str, key: str) -> bytes:
    """`scope\\0namespace\\0key` as UTF-8; NUL is the separator, so it is refused inside parts."""
    for name, part in (("scope", scope), ("namespace", namespace), ("key", key)):
        if not isinstance(part, str) or not part:
            raise InvalidKey(f"kv {name} must be a non-empty string, got {part!r}")
        if "\0" in part:
            raise InvalidKey(f"kv {name} {part!r} contains a NUL character")
    path = f"{scope}\0{namespace}\0{key}".encode()
    if len(KV_HIST) + len(path) + 5 > MAX_KEY:
        raise InvalidKey(f"kv key {scope}:{namespace}:{key[:40]}... is {len(path)} bytes; the limit is {MAX_KEY - 10}")
    return path


def kv_prefix(scope: str, namespace: str) -> bytes:
    kv_path(scope, namespace, "x")
    return f"{scope}\0{namespace}\0".encode()


def split_kv_path(path: bytes) -> tuple[str, str, str]:
    scope, namespace, key = path.decode().split("\0")
    return scope, namespace, key
