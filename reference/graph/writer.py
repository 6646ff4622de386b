"""The write path: every mutating op runs inside one `GraphWriter` (one LMDB write transaction).

Each op first validates and reads (and may raise, leaving nothing changed),
then mutates: it takes the next revision, writes the new version (moving the
old one to history), appends to the packed adjacency lists (buffered in memory
and written once at `flush`), compacts a list inline when the policy says so,
and appends a revision-log record. One op = one revision (§8 Q5).
"""
from __future__ import annotations

import logging
import math
import os
import sys
import warnings
from collections.abc import Callable
from typing import Any

from reference.clock import MAX_TS
from reference.graph import keyspace as ks
from reference.graph import revlog
from reference.graph.adjacency import ENTRY_SIZE, TOMBSTONE, AdjList, CompactionPolicy, merge_entries
from reference.graph.codec import check_payload, frame
from reference.graph.recordcodec import encode_edge, encode_kv, encode_node
from reference.graph.errors import NotFound, TimeWentBackwards, TombstoneWarning
from reference.graph.relations import SUPERSEDES, RelationTable, check_name
from reference.graph.schema import load_relations, put_relation
from reference.graph.view import GraphView, encode_head
from reference.keys import parse_key

log = logging.getLogger("reference.graph")


def _opt_str(value: object, what: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{what} must be a string or None, got {type(value).__name__} {value!r}")
    return value


def _caller_level() -> int:
    """The `stacklevel` that points a warning at the first frame outside this package."""
    here = os.path.dirname(__file__)
    frame, level = sys._getframe(1), 1
    while frame is not None and os.path.dirname(frame.f_code.co_filename) == here:
        frame, level = frame.f_back, level + 1
    return level


class GraphWriter:
    """State of one write transaction; see the module docstring for the op protocol."""

    def __init__(self, txn: Any, rels: RelationTable, names: dict[int, str], hasher: Callable[[str], int],
                 clock: Any, policy: CompactionPolicy, warned: set[bytes]) -> None:
        self.txn = txn
        self.rels = rels
        self.new_names: dict[int, str] = {}
        self.view = GraphView(txn, rels, names, self.new_names)
        self.hash = hasher
        self.clock = clock
        self.policy = policy
        self.warned = warned
        self.lists: dict[bytes, AdjList] = {}
        self.head, self.last_ts = self.view.head()
        self.events: list[tuple] = []
        self.nodes_seen: set[int] = set()
        self.logged: list[tuple[int, str, bytes]] = []   # (rev, op, subject) of this transaction's log entries

    # -- helpers --------------------------------------------------------------
    def _rel(self, name: str) -> int:
        if name not in self.rels.ids:
            self.rels = self.view.rels = load_relations(self.txn)  # another process may have added it
        return self.rels.id(name)

    def _id(self, key: str) -> tuple[int, bool]:
        if not isinstance(key, str):
            raise TypeError(f"ids are canonical key strings, got {type(key).__name__} {key!r}")
        nid = self.hash(key)
        if self.view.known(key, nid):
            return nid, False
        parse_key(key)
        return nid, True

    def _intern(self, key: str, nid: int, new: bool) -> None:
        if new:
            self.txn.put(ks.KEY + ks.u64(nid), frame(ks.KEY + ks.u64(nid), key.encode()))
            self.new_names[nid] = key

    def _ts(self, ts: float | None) -> float:
        if ts is None:
            now = float(self.clock.now())
            if now < self.last_ts:
                if b"clock" not in self.warned:  # once per store: a clock behind explicit timestamps
                    self.warned.add(b"clock")
                    log.warning("clock says %r, before the last write at %r; writes use %r", now, self.last_ts,
                                self.last_ts)
                return self.last_ts
            return now
        if isinstance(ts, bool) or not isinstance(ts, (int, float)) or not math.isfinite(ts):
            raise TypeError(f"ts must be finite Unix seconds or None, got {ts!r}")
        if not 0 <= ts <= MAX_TS:  # one write at 1e308 would refuse every later, real one
            raise ValueError(f"ts {ts!r} is outside 0..{MAX_TS:.0f} (Unix seconds up to the end of year 9999)")
        if ts < self.last_ts:
            raise TimeWentBackwards(f"ts {ts!r} is before the last recorded write at {self.last_ts!r}")
        return float(ts)

    def _next(self, ts: float) -> int:
        if self.head >= ks.U32_MAX:
            raise OverflowError("the store has used all 2**32-1 revisions")
        self.head += 1
        self.last_ts = ts
        return self.head

    def _log(self, rev: int, ts: float, op: str, overwrite: bool, run_id: str | None, task_id: str | None,
             subject: bytes) -> None:
        self.txn.put(revlog.log_key(rev), revlog.encode(rev, ts, op, overwrite, run_id, task_id, subject))
        self.logged.append((rev, op, subject))

    def _list(self, key: bytes) -> AdjList:
        adj = self.lists.get(key)
        if adj is None:
            adj = self.lists[key] = AdjList.decode(key, self.txn.get(key))
        return adj

    def _append(self, hot: bytes, cold: bytes, nid: int, rel: int, other: int, rev: int, flags: int) -> None:
        key = hot + ks.u64(nid)
        adj = self._list(key)
        adj.append(rel, other, rev, flags)
        if not adj.tombstones:
            return
        if self.policy.enabled:
            if adj.should_compact(self.policy):
                dead = adj.compact(rev, key)
                cold_list = self._list(cold + ks.u64(nid))
                cold_list.entries = bytearray(merge_entries(cold_list.entries, dead))
                cold_list.tombstones += len(dead) // ENTRY_SIZE // 2
        elif adj.tombstones >= self.policy.warn_ratio * adj.count and key not in self.warned:
            self.warned.add(key)
            msg = f"adjacency list {key!r}: {adj.tombstones} of {adj.count} entries are tombstones; run compact()"
            log.warning(msg)
            warnings.warn(msg, TombstoneWarning, stacklevel=_caller_level())

    def _move_to_history(self, hist_prefix: bytes, old: dict, encode: Callable[[dict], bytes]) -> None:
        k = hist_prefix + ks.u32(old["rev"])
        self.txn.put(k, frame(k, encode(old)))

    def flush(self) -> None:
        for key, adj in self.lists.items():
            self.txn.put(key, adj.encode(key))
        self.lists.clear()
        self.txn.put(ks.META_HEAD, encode_head(self.head, self.last_ts))

    # -- nodes ----------------------------------------------------------------
    def put_node(self, key: str, type: str, payload: Any, scope: str | None, ts: float | None,
                 run_id: str | None, task_id: str | None) -> tuple[int, bool]:
        nid, new = self._id(key)
        if not isinstance(type, str) or not type:
            raise TypeError(f"node type must be a non-empty string, got {type!r}")
        for value, what in ((scope, "scope"), (run_id, "run_id"), (task_id, "task_id")):
            _opt_str(value, what)
        check_payload(payload)
        ts = self._ts(ts)
        old = self.view.node_at(nid, None)
        rev = self._next(ts)
        self._intern(key, nid, new)
        if old is not None:
            self._move_to_history(ks.NODE_HIST + ks.u64(nid), old, encode_node)
        body = {
            "id": key, "type": type, "payload": payload, "scope": scope,
            "created_ts": old["created_ts"] if old else ts, "updated_ts": ts, "rev": rev,
            "created_rev": old["created_rev"] if old else rev, "run_id": run_id, "task_id": task_id,
            "superseded_by": old["superseded_by"] if old else self._superseded_by(nid),
        }
        self.txn.put(ks.NODE + ks.u64(nid), frame(ks.NODE + ks.u64(nid), encode_node(body)))
        self.nodes_seen.add(nid)
        self._log(rev, ts, "put_node", old is not None, run_id, task_id, revlog.NODE_SUBJECT.pack(nid))
        return rev, old is not None

    def _has_node(self, nid: int) -> bool:
        # Nodes are never deleted, so a positive answer holds for the rest of the transaction.
        if nid in self.nodes_seen:
            return True
        if self.txn.get(ks.NODE + ks.u64(nid)) is None:
            return False
        self.nodes_seen.add(nid)
        return True

    def node_exists(self, key: str) -> bool:
        nid = self.hash(key)
        return self.view.known(key, nid) and self.view.node_at(nid, None) is not None

    def _superseded_by(self, nid: int) -> str | None:
        rid = self.rels.ids[SUPERSEDES]
        key = ks.IN + ks.u64(nid)
        adj = self.lists.get(key) or AdjList.decode(key, self.txn.get(key))
        srcs = [(created, other) for rel, other, created in adj.live(None, key) if rel == rid]
        return self.view.name_of(max(srcs)[1], key) if srcs else None

    def _refresh_superseded(self, nid: int, rev: int, ts: float) -> None:
        node = self.view.node_at(nid, None)
        if node is None:
            return
        now = self._superseded_by(nid)
        if now != node["superseded_by"]:
            self._move_to_history(ks.NODE_HIST + ks.u64(nid), node, encode_node)
            node.update(superseded_by=now, rev=rev, updated_ts=ts)
            self.txn.put(ks.NODE + ks.u64(nid), frame(ks.NODE + ks.u64(nid), encode_node(node)))

    # -- edges ----------------------------------------------------------------
    def put_edge(self, src: str, rel: str, dst: str, payload: Any, ts: float | None, run_id: str | None,
                 task_id: str | None, op: str = "put_edge") -> tuple[int, bool]:
        rid = self._rel(rel)
        sid, snew = self._id(src)
        did, dnew = self._id(dst)
        _opt_str(run_id, "run_id"), _opt_str(task_id, "task_id")
        check_payload(payload)
        ts = self._ts(ts)
        eid = ks.edge_id(sid, rid, did)
        old = self.view.edge_at(eid, None)
        live = old is not None and not old["deleted"]
        for key, nid in ((src, sid), (dst, did)):
            if not self._has_node(nid):
                log.info("edge %s -%s-> %s refers to node %s, which does not exist (allowed)", src, rel, dst, key)
        rev = self._next(ts)
        self._intern(src, sid, snew)
        self._intern(dst, did, dnew)
        if old is not None:
            self._move_to_history(ks.EDGE_HIST + eid, old, encode_edge)
        body = {
            "payload": payload, "created_ts": old["created_ts"] if live else ts, "updated_ts": ts, "rev": rev,
            "created_rev": old["created_rev"] if live else rev, "run_id": run_id, "task_id": task_id,
            "deleted": False,
        }
        self.txn.put(ks.EDGE + eid, frame(ks.EDGE + eid, encode_edge(body)))
        if not live:
            self._append(ks.OUT, ks.OUT_COLD, sid, rid, did, rev, 0)
            self._append(ks.IN, ks.IN_COLD, did, rid, sid, rev, 0)
            if rel == SUPERSEDES:
                self._refresh_superseded(did, rev, ts)
        self._log(rev, ts, op, live, run_id, task_id, revlog.EDGE_SUBJECT.pack(sid, rid, did))
        return rev, live

    def delete_edge(self, src: str, rel: str, dst: str, ts: float | None, run_id: str | None,
                    task_id: str | None) -> int:
        rid = self._rel(rel)
        sid, did = self.hash(src), self.hash(dst)
        old = None
        if self.view.known(src, sid) and self.view.known(dst, did):
            old = self.view.edge_at(ks.edge_id(sid, rid, did), None)
        if old is None or old["deleted"]:
            raise NotFound(f"no live edge {src} -{rel}-> {dst} to delete")
        _opt_str(run_id, "run_id"), _opt_str(task_id, "task_id")
        ts = self._ts(ts)
        rev = self._next(ts)
        eid = ks.edge_id(sid, rid, did)
        self._move_to_history(ks.EDGE_HIST + eid, old, encode_edge)
        body = dict(old, payload=None, updated_ts=ts, rev=rev, run_id=run_id, task_id=task_id, deleted=True)
        self.txn.put(ks.EDGE + eid, frame(ks.EDGE + eid, encode_edge(body)))
        self._append(ks.OUT, ks.OUT_COLD, sid, rid, did, rev, TOMBSTONE)
        self._append(ks.IN, ks.IN_COLD, did, rid, sid, rev, TOMBSTONE)
        if rel == SUPERSEDES:
            self._refresh_superseded(did, rev, ts)
        self._log(rev, ts, "delete_edge", True, run_id, task_id, revlog.EDGE_SUBJECT.pack(sid, rid, did))
        return rev

    # -- policy KV ------------------------------------------------------------
    def put_kv(self, path: bytes, payload: Any, ts: float | None, run_id: str | None, task_id: str | None,
               delete: bool = False) -> tuple[int, bool]:
        _opt_str(run_id, "run_id"), _opt_str(task_id, "task_id")
        check_payload(payload)
        old = self.view.kv_at(path, None)
        live = old is not None and not old["deleted"]
        if delete and not live:
            raise NotFound(f"no live kv entry {path.decode().replace(chr(0), ':')} to delete")
        ts = self._ts(ts)
        rev = self._next(ts)
        if old is not None:
            self._move_to_history(ks.KV_HIST + path + b"\0", old, encode_kv)
        body = {"payload": None if delete else payload, "ts": ts, "rev": rev, "run_id": run_id,
                "task_id": task_id, "deleted": delete}
        self.txn.put(ks.KV + path, frame(ks.KV + path, encode_kv(body)))
        self._log(rev, ts, "delete_kv" if delete else "put_kv", live, run_id, task_id, path)
        return rev, live

    # -- compaction -----------------------------------------------------------
    def compact_all(self) -> dict[str, int]:
        """Compact every list holding tombstones at the head revision; no new revision."""
        lists = moved = 0
        for hot, cold in ((ks.OUT, ks.OUT_COLD), (ks.IN, ks.IN_COLD)):
            for nid in list(self.view.iter_ids(hot)):
                key = hot + ks.u64(nid)
                adj = self.lists.get(key) or AdjList.decode(key, self.txn.get(key))
                if not adj.tombstones:
                    continue
                dead = adj.compact(self.head, key)
                self.lists[key] = adj
                cold_list = self._list(cold + ks.u64(nid))
                cold_list.entries = bytearray(merge_entries(cold_list.entries, dead))
                cold_list.tombstones += len(dead) // ENTRY_SIZE // 2
                lists += 1
                moved += len(dead) // ENTRY_SIZE
        return {"lists_compacted": lists, "entries_moved": moved}

    # -- relations ------------------------------------------------------------
    def register_relation(self, name: str) -> int:
        check_name(name)
        self.rels = self.view.rels = load_relations(self.txn)
        if name in self.rels.ids:
            return self.rels.ids[name]
        rels = RelationTable(self.rels.pairs())
        rid = len(rels) + 1
        rels.add(rid, name)
        put_relation(self.txn, rid, name)
        self.rels = self.view.rels = rels
        return rid

