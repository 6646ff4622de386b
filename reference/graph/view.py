"""Reads over one LMDB transaction: versions at a revision, adjacency, keys, the log.

Both the store's read calls (a fresh read transaction per call) and the writer
(its write transaction) read through a `GraphView`. A revision `rev=None`
means "latest"; otherwise the answer is exactly the state after `rev`.
"""
from __future__ import annotations

import struct
from collections.abc import Callable, Iterator
from typing import Any

from reference.graph import keyspace as ks
from reference.graph import recordcodec, revlog
from reference.graph.adjacency import ENTRY, AdjList, merge_entries, resolve
from reference.graph.at import At
from reference.graph.codec import frame, unframe
from reference.graph.errors import CorruptRecord, KeyCollision, RevisionOutOfRange
from reference.graph.relations import RelationTable

HEAD = struct.Struct("<Id")


def encode_head(rev: int, last_ts: float) -> bytes:
    return frame(ks.META_HEAD, HEAD.pack(rev, last_ts))


class GraphView:
    """Typed reads over `txn`. `names` caches id -> key for committed data only;
    `local` holds names this view's own (uncommitted) transaction wrote."""

    def __init__(self, txn: Any, rels: RelationTable, names: dict[int, str],
                 local: dict[int, str] | None = None) -> None:
        self.txn = txn
        self.rels = rels
        self.names = names
        self.local = local

    # -- meta -----------------------------------------------------------------
    def head(self) -> tuple[int, float]:
        value = self.txn.get(ks.META_HEAD)
        if value is None:
            return 0, float("-inf")
        body = unframe(ks.META_HEAD, value, "head record")
        if len(body) != HEAD.size:
            raise CorruptRecord(f"head record is {len(body)} bytes, expected {HEAD.size}")
        return HEAD.unpack(body)

    def resolve(self, at: At | None) -> int | None:
        """The revision `at` names, or None for latest; errors for revisions beyond the head."""
        if at is None:
            return None
        if not isinstance(at, At):
            raise TypeError(f"at= takes an At (At.rev(n) or At.ts(x)), got {type(at).__name__} {at!r}")
        head, last_ts = self.head()
        if at.kind == "rev":
            if at.value > head:
                raise RevisionOutOfRange(f"revision {at.value} is after the newest revision {head}")
            return int(at.value)
        if at.value >= last_ts:
            return head
        lo, hi = 0, head  # invariant: ts(lo) <= x (ts(0) = -inf), ts(hi) > x
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self.log_ts(mid) <= at.value:
                lo = mid
            else:
                hi = mid
        return lo

    def log_ts(self, rev: int) -> float:
        value = self.txn.get(revlog.log_key(rev))
        if value is None:
            raise CorruptRecord(f"revision log entry {rev} is missing (head is past it)")
        return revlog.read_ts(rev, value)

    # -- ids ------------------------------------------------------------------
    def key_of(self, nid: int) -> str | None:
        name = self.names.get(nid)
        if name is None and self.local is not None:
            name = self.local.get(nid)
        if name is not None:
            return name
        k = ks.KEY + ks.u64(nid)
        value = self.txn.get(k)
        if value is None:
            return None
        try:
            name = unframe(k, value, "id intern entry").decode()
        except UnicodeDecodeError:
            raise CorruptRecord(f"id intern entry at LMDB key {k!r} is not UTF-8") from None
        (self.local if self.local is not None else self.names)[nid] = name
        return name

    def name_of(self, nid: int, where: bytes) -> str:
        name = self.key_of(nid)
        if name is None:
            raise CorruptRecord(f"id {nid:#018x} referenced from LMDB key {where!r} has no intern entry")
        return name

    def known(self, key: str, nid: int) -> bool:
        """True if `key` is interned; KeyCollision if its id belongs to another key."""
        stored = self.key_of(nid)
        if stored is None:
            return False
        if stored != key:
            raise KeyCollision(f"key {key!r} and stored key {stored!r} share the 64-bit id {nid:#018x}")
        return True

    # -- versioned records ----------------------------------------------------
    def version_at(self, latest_key: bytes, hist_prefix: bytes, rev: int | None, what: str) -> dict | None:
        """The newest version at or before `rev` of a record kept as latest + history."""
        value = self.txn.get(latest_key)
        if value is None:
            return None
        body = self._decode(latest_key, value, what)
        if rev is None or body["rev"] <= rev:
            return body
        cur = self.txn.cursor()
        found = cur.prev() if cur.set_range(hist_prefix + ks.u32(rev + 1)) else cur.last()
        if not found:
            return None
        k = cur.key()
        if len(k) != len(hist_prefix) + 4 or not k.startswith(hist_prefix):
            return None
        old = self._decode(k, cur.value(), what)
        if old["rev"] != ks.rev_suffix(k):
            raise CorruptRecord(f"{what} at LMDB key {k!r} says rev {old['rev']}")
        return old

    def _decode(self, key: bytes, value: bytes, what: str) -> dict:
        return recordcodec.decode(what, key, unframe(key, value, what))

    def node_at(self, nid: int, rev: int | None) -> dict | None:
        return self.version_at(ks.NODE + ks.u64(nid), ks.NODE_HIST + ks.u64(nid), rev, "node")

    def edge_at(self, eid: bytes, rev: int | None) -> dict | None:
        return self.version_at(ks.EDGE + eid, ks.EDGE_HIST + eid, rev, "edge")

    def kv_at(self, path: bytes, rev: int | None) -> dict | None:
        return self.version_at(ks.KV + path, ks.KV_HIST + path + b"\0", rev, "kv entry")

    def kv_paths(self, prefix: bytes) -> Iterator[bytes]:
        cur = self.txn.cursor()
        start = ks.KV + prefix
        if not cur.set_range(start):
            return
        for k in cur.iternext(keys=True, values=False):
            if not k.startswith(start):
                return
            yield bytes(k[len(ks.KV):])

    # -- adjacency ------------------------------------------------------------
    def adjacency(self, hot: bytes, cold: bytes, nid: int, rev: int | None,
                  get_list: Callable[[bytes], AdjList] | None = None) -> list[tuple[int, int, int]]:
        """(rel, other, created_rev) of live edges at `rev` in one direction, in creation order."""
        hk = hot + ks.u64(nid)
        adj = get_list(hk) if get_list else AdjList.decode(hk, self.txn.get(hk))
        if rev is None or rev >= adj.compacted_rev:
            return adj.live(rev, hk)
        ck = cold + ks.u64(nid)
        cold_list = get_list(ck) if get_list else AdjList.decode(ck, self.txn.get(ck))
        return resolve(ENTRY.iter_unpack(merge_entries(cold_list.entries, adj.entries)), rev, hk)

    def iter_items(self, prefix: bytes) -> Iterator[tuple[int, bytes, bytes]]:
        """(id, LMDB key, value) under a per-id keyspace, in numeric id order."""
        cur = self.txn.cursor()
        if not cur.set_range(prefix):
            return
        for k, v in cur.iternext():
            if not k.startswith(prefix):
                return
            yield ks.id_of(k, prefix), k, v

    def iter_ids(self, prefix: bytes) -> Iterator[int]:
        """Ids under a per-id keyspace (n:, out:, in:) in numeric order."""
        cur = self.txn.cursor()
        if not cur.set_range(prefix):
            return
        for k in cur.iternext(keys=True, values=False):
            if not k.startswith(prefix):
                return
            yield ks.id_of(k, prefix)
