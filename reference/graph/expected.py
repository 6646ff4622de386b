"""What the revision log says must exist, to tell a vanished record from one never written.

A flipped byte in an LMDB key moves the record out of reach: the lookup of
the original key simply misses, and a miss looks like "no such node". The
revision log `r:<rev>` names the subject of every write, so a read that
misses a node, an id intern entry or an adjacency list asks this index
whether the log recorded one; if it did, the record vanished and the read
raises `CorruptRecord` naming the key instead of answering None or [].

Built lazily on the first such miss (one pass over the log) and extended
incrementally from the last revision seen; normal hits never consult it.
A log entry missing below the head is itself reported. Point reads (node,
edge, KV entry, adjacency list, intern entry) are covered; `list_kv` is not
(it would need the log on every call), `verify` covers it.
"""
from __future__ import annotations

import threading

from reference.graph import keyspace as ks
from reference.graph import revlog
from reference.graph.errors import CorruptRecord

_NODE_OPS = {"put_node"}


def subject_be(subject: bytes) -> bytes:
    """The big-endian LMDB edge id of a little-endian log subject (src u64, rel u32, dst u64)."""
    src, rel, dst = revlog.EDGE_SUBJECT.unpack(subject)
    return ks.edge_id(src, rel, dst)


class ExpectedRecords:
    """Ids the log says were written: nodes (first revision), edge sources and destinations."""

    def __init__(self) -> None:
        self.node_rev: dict[int, int] = {}
        self.out_first: dict[int, int] = {}
        self.in_first: dict[int, int] = {}
        self.edge_first: dict[bytes, int] = {}  # edge id (src, rel, dst) -> first put
        self.kv_first: dict[bytes, int] = {}  # kv path -> first write
        self.seen = 0  # revisions [1, seen] are indexed
        self._lock = threading.Lock()

    def refresh(self, view) -> None:
        """Index the log entries from `seen + 1` to the head of `view`."""
        head, _ = view.head()
        with self._lock:
            for rev in range(self.seen + 1, head + 1):
                value = view.txn.get(revlog.log_key(rev))
                if value is None:
                    raise CorruptRecord(f"revision log entry {rev} is missing (head is {head})")
                _, op, _, _, _, subject = revlog.decode(rev, value)
                if op in _NODE_OPS and len(subject) == revlog.NODE_SUBJECT.size:
                    self.node_rev.setdefault(revlog.NODE_SUBJECT.unpack(subject)[0], rev)
                elif op in ("put_edge", "supersede") and len(subject) == revlog.EDGE_SUBJECT.size:
                    src, _, dst = revlog.EDGE_SUBJECT.unpack(subject)
                    self.out_first.setdefault(src, rev)
                    self.in_first.setdefault(dst, rev)
                    self.edge_first.setdefault(bytes(subject_be(subject)), rev)
                elif op in ("put_kv", "delete_kv"):
                    self.kv_first.setdefault(bytes(subject), rev)
                self.seen = rev

    def check_node(self, view, key: str, nid: int, rev: int | None) -> None:
        """Raise if the log put node `nid` at or before `rev` (None = latest): its record vanished."""
        self.refresh(view)
        first = self.node_rev.get(nid)
        if first is not None and (rev is None or first <= rev):
            raise CorruptRecord(f"node {key[:80]!r}: the revision log recorded it at revision {first}, "
                                "but its record (or id intern entry) is missing")

    def check_known(self, view, key: str, nid: int, rev: int | None) -> None:
        """Raise if the log names `nid` in any write at or before `rev`: its intern entry vanished."""
        self.refresh(view)
        firsts = [d[nid] for d in (self.node_rev, self.out_first, self.in_first) if nid in d]
        if firsts and (rev is None or min(firsts) <= rev):
            raise CorruptRecord(f"id {key[:80]!r}: the revision log recorded writes to it, "
                                "but its id intern entry is missing")

    def check_edge(self, view, eid: bytes, rev: int | None, what: str) -> None:
        """Raise if the log put edge `eid` at or before `rev`: its record vanished."""
        self.refresh(view)
        first = self.edge_first.get(eid)
        if first is not None and (rev is None or first <= rev):
            raise CorruptRecord(f"edge {what[:160]}: the revision log recorded it at revision {first}, "
                                "but its record is missing")

    def check_kv(self, view, path: bytes, rev: int | None) -> None:
        """Raise if the log wrote KV `path` at or before `rev`: its record vanished."""
        self.refresh(view)
        first = self.kv_first.get(path)
        if first is not None and (rev is None or first <= rev):
            raise CorruptRecord(f"kv entry {path[:120]!r}: the revision log recorded a write to it at revision "
                                f"{first}, but its record is missing")

    def check_list(self, view, key: str, nid: int, outgoing: bool) -> None:
        """Raise if the log recorded an edge out of (into) `nid` but its adjacency list is missing."""
        self.refresh(view)
        first = (self.out_first if outgoing else self.in_first).get(nid)
        if first is not None:
            raise CorruptRecord(f"{'out' if outgoing else 'in'}-edges of {key[:80]!r}: the revision log "
                                f"recorded one at revision {first}, but the adjacency list is missing")
