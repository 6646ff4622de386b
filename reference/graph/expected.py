"""What the revision log says must exist, to tell a vanished record from one never written.

A flipped byte in an LMDB key moves the record out of reach: the lookup of
the original key simply misses, and a miss looks like "no such node". The
revision log `r:<rev>` names the subject of every write, so a read that
misses a node, an id intern entry or an adjacency list asks this index
whether the log recorded one; if it did, the record vanished and the read
raises `CorruptRecord` naming the key instead of answering None or [].

Built lazily on the first such miss (one pass over the log); after that the
handle's own commits extend it as they happen (`extend`) and a later miss reads
only what other handles logged since; normal hits never consult it.
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

    def refresh(self, view, rev: int | None = None) -> int:
        """Index the log entries from `seen + 1` to the head of `view`; returns the revision a check at
        `rev` (None: the view's head) covers. The index may hold newer commits than an older view sees:
        checks never look past that revision."""
        head, _ = view.head()
        with self._lock:
            for r in range(self.seen + 1, head + 1):
                value = view.txn.get(revlog.log_key(r))
                if value is None:
                    raise CorruptRecord(f"revision log entry {r} is missing (head is {head})")
                _, op, _, _, _, subject = revlog.decode(r, value)
                self._index(r, op, subject)
        return head if rev is None else rev

    def extend(self, entries: list[tuple[int, str, bytes]]) -> None:
        """Index (rev, op, subject) entries this handle just committed, if they follow what is indexed.

        Only once the index exists (a miss built it) and without a gap (another handle's writes in
        between are left to `refresh`), so the next miss does not pay for a whole batch."""
        with self._lock:
            if not self.seen or not entries or entries[0][0] != self.seen + 1:
                return
            for rev, op, subject in entries:
                self._index(rev, op, subject)

    def _index(self, rev: int, op: str, subject: bytes) -> None:
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
        upto = self.refresh(view, rev)
        first = self.node_rev.get(nid)
        if first is not None and first <= upto:
            raise CorruptRecord(f"node {key[:80]!r}: the revision log recorded it at revision {first}, "
                                "but its record (or id intern entry) is missing")

    def check_known(self, view, key: str, nid: int, rev: int | None) -> None:
        """Raise if the log names `nid` in any write at or before `rev`: its intern entry vanished."""
        upto = self.refresh(view, rev)
        firsts = [d[nid] for d in (self.node_rev, self.out_first, self.in_first) if nid in d]
        if firsts and min(firsts) <= upto:
            raise CorruptRecord(f"id {key[:80]!r}: the revision log recorded writes to it, "
                                "but its id intern entry is missing")

    def check_edge(self, view, eid: bytes, rev: int | None, what: str) -> None:
        """Raise if the log put edge `eid` at or before `rev`: its record vanished."""
        upto = self.refresh(view, rev)
        first = self.edge_first.get(eid)
        if first is not None and first <= upto:
            raise CorruptRecord(f"edge {what[:160]}: the revision log recorded it at revision {first}, "
                                "but its record is missing")

    def check_kv(self, view, path: bytes, rev: int | None) -> None:
        """Raise if the log wrote KV `path` at or before `rev`: its record vanished."""
        upto = self.refresh(view, rev)
        first = self.kv_first.get(path)
        if first is not None and first <= upto:
            raise CorruptRecord(f"kv entry {path[:120]!r}: the revision log recorded a write to it at revision "
                                f"{first}, but its record is missing")

    def check_list(self, view, key: str, nid: int, outgoing: bool) -> None:
        """Raise if the log recorded an edge out of (into) `nid` but its adjacency list is missing."""
        upto = self.refresh(view)
        first = (self.out_first if outgoing else self.in_first).get(nid)
        if first is not None and first <= upto:
            raise CorruptRecord(f"{'out' if outgoing else 'in'}-edges of {key[:80]!r}: the revision log "
                                f"recorded one at revision {first}, but the adjacency list is missing")
