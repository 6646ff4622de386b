"""Check `graph/data.mdb` read-only: every value's frame, key order, the log, and cross-references.

Every LMDB value is framed with a CRC over its key and body (graph/codec.py),
so unframing each value under the key it is stored at catches a flipped byte
in either. Then the cross-references: every revision 1..head has a log entry;
every node the log put has its `n:` record and `k:` intern entry; every live
out-edge has its edge record and the mirror in-edge, and the other way round.
"""
from __future__ import annotations

from pathlib import Path

import lmdb

from reference.errors import CorruptData
from reference.graph import keyspace as ks
from reference.graph import recordcodec, revlog
from reference.graph.adjacency import AdjList
from reference.graph.codec import unframe
from reference.graph.expected import ExpectedRecords
from reference.graph.view import GraphView
from reference.manifest import lmdb_problem

_RECORDS = ((ks.NODE_HIST, "node"), (ks.NODE, "node"), (ks.EDGE_HIST, "edge"), (ks.EDGE, "edge"),
            (ks.KV_HIST, "kv entry"), (ks.KV, "kv entry"))
_LISTS = (ks.OUT, ks.IN, ks.OUT_COLD, ks.IN_COLD)


def check_graph(directory: Path, report) -> None:
    file = directory / "data.mdb"
    if not file.exists():
        if (directory / "lock.mdb").exists():
            report.add(file, "file", "missing while lock.mdb is there (LMDB creates both): the graph's data was deleted")
        return
    why = lmdb_problem(file)       # before LMDB maps it: a cut file would kill this process (SIGBUS)
    if why is not None:
        report.add(file, "file", why)
        return
    try:
        env = lmdb.open(str(directory), readonly=True, lock=False, subdir=True, max_dbs=0)
    except lmdb.Error as exc:
        report.add(file, "environment", f"LMDB cannot open it ({type(exc).__name__}: {exc})")
        return
    try:
        with env.begin() as txn:
            count, lists = _values(txn, file, report)
            _cross(txn, file, lists, report)
        report.checked[str(file)] = count
    except (lmdb.Error, CorruptData) as exc:
        report.add(file, "environment", f"{type(exc).__name__}: {str(exc)[:200]}")
    finally:
        env.close()


def _values(txn, file: Path, report) -> tuple[int, dict[bytes, list]]:
    """Unframe and decode every value; return the count and the decoded latest adjacency lists."""
    count, prev = 0, None
    lists: dict[bytes, list] = {}
    for k, v in txn.cursor().iternext():
        k, count = bytes(k), count + 1
        if prev is not None and k <= prev:
            report.add(file, f"LMDB key {k[:40]!r}", f"out of order after {prev[:40]!r} (a key byte was damaged)")
        prev = k
        try:
            _check_value(k, bytes(v), lists)
        except (CorruptData, ValueError) as exc:
            report.add(file, f"LMDB key {k[:40]!r}", str(exc)[:200])
    return count, lists


def _check_value(k: bytes, v: bytes, lists: dict[bytes, list]) -> None:
    for prefix in _LISTS:
        if k.startswith(prefix):
            adj = AdjList.decode(k, v)
            if prefix in (ks.OUT, ks.IN):
                lists[k] = adj.live(None, k)
            return
    for prefix, what in _RECORDS:
        if k.startswith(prefix):
            recordcodec.decode(what, k, unframe(k, v, what))
            return
    if k.startswith(ks.LOG):
        revlog.decode(ks.rev_suffix(k), v)
        return
    body = unframe(k, v, "record")
    if k.startswith(ks.KEY):
        body.decode()


def _cross(txn, file: Path, lists: dict[bytes, list], report) -> None:
    view = GraphView(txn, _relations(txn), {})
    expected = ExpectedRecords()
    try:
        expected.refresh(view)
    except (CorruptData, ValueError) as exc:
        report.add(file, "revision log", str(exc)[:200])
        return
    for nid, rev in expected.node_rev.items():
        if txn.get(ks.NODE + ks.u64(nid)) is None:
            report.add(file, f"node id {nid:#018x}", f"put at revision {rev} but its n: record is missing")
    for ids in (expected.node_rev, expected.out_first, expected.in_first):
        for nid in ids:
            if txn.get(ks.KEY + ks.u64(nid)) is None:
                report.add(file, f"id {nid:#018x}", "named by the revision log but its k: intern entry is missing")
    for nid in expected.out_first:
        if ks.OUT + ks.u64(nid) not in lists:
            report.add(file, f"out-list of {nid:#018x}", "the log put an edge out of it but the list is missing")
    for nid in expected.in_first:
        if ks.IN + ks.u64(nid) not in lists:
            report.add(file, f"in-list of {nid:#018x}", "the log put an edge into it but the list is missing")
    for key, entries in lists.items():
        outgoing = key.startswith(ks.OUT)
        me = ks.id_of(key, ks.OUT if outgoing else ks.IN)
        mirror = ks.IN if outgoing else ks.OUT
        for rel, other, _ in entries:
            src, dst = (me, other) if outgoing else (other, me)
            if txn.get(ks.EDGE + ks.edge_id(src, rel, dst)) is None:
                report.add(file, f"edge {src:#018x} -{rel}-> {dst:#018x}", "listed in an adjacency list but its "
                           "e: record is missing")
            back = lists.get(mirror + ks.u64(other), [])
            if not any(r == rel and o == me for r, o, _ in back):
                report.add(file, f"edge {src:#018x} -{rel}-> {dst:#018x}", "has no mirror entry in the "
                           f"{'in' if outgoing else 'out'}-list of {other:#018x}")


def _relations(txn):
    from reference.graph.schema import load_relations
    return load_relations(txn)
