"""Store format marker and the persisted relation intern table (§8 Q3, Q4).

`m:format` holds the on-disk format version; a store written by a newer,
unknown format is refused with `UnsupportedFormat` rather than misread.
Payloads are opaque JSON: their schema is the caller's (put a version field in
the payload if it evolves); the store never rewrites them.
"""
from __future__ import annotations

from typing import Any

from reference.graph import keyspace as ks
from reference.graph.codec import FORMAT, frame, unframe
from reference.graph.errors import CorruptRecord, UnsupportedFormat
from reference.graph.relations import BUILTIN, RelationTable


def put_relation(txn: Any, rid: int, name: str) -> None:
    k1, k2 = ks.REL_BY_NAME + name.encode(), ks.REL_BY_ID + ks.u32(rid)
    txn.put(k1, frame(k1, ks.u32(rid)))
    txn.put(k2, frame(k2, name.encode()))


def is_initialised(txn: Any) -> bool:
    value = txn.get(ks.META_FORMAT)
    if value is None:
        return False
    body = unframe(ks.META_FORMAT, value, "format marker")
    version = int.from_bytes(body, "little")
    if version != FORMAT:
        raise UnsupportedFormat(f"graph store format {version}; this code reads format {FORMAT}")
    return True


def initialise(txn: Any) -> None:
    """Write the format marker and the ten built-in relations with ids 1..10."""
    txn.put(ks.META_FORMAT, frame(ks.META_FORMAT, FORMAT.to_bytes(4, "little")))
    for rid, name in enumerate(BUILTIN, start=1):
        put_relation(txn, rid, name)


def load_relations(txn: Any) -> RelationTable:
    pairs: list[tuple[int, str]] = []
    cur = txn.cursor()
    if cur.set_range(ks.REL_BY_ID):
        for k, v in cur.iternext():
            if not k.startswith(ks.REL_BY_ID):
                break
            k = bytes(k)
            try:
                name = unframe(k, v, "relation").decode()
            except UnicodeDecodeError:
                raise CorruptRecord(f"relation at LMDB key {k!r} is not UTF-8") from None
            rid = ks.rev_suffix(k)
            by_name = txn.get(ks.REL_BY_NAME + name.encode())
            if by_name is None or int.from_bytes(unframe(ks.REL_BY_NAME + name.encode(), by_name, "relation"), "big") != rid:
                raise CorruptRecord(f"relation {name!r} (id {rid}) has no matching name entry")
            pairs.append((rid, name))
    try:
        return RelationTable(pairs)
    except ValueError as exc:
        raise CorruptRecord(f"relation intern table: {exc}") from None
