"""The read half of `GraphStore`: every read takes `at` (None = latest, or an `At`).

Each call runs in its own LMDB read transaction, so answers are consistent
within a call and calls are safe from any thread. Adjacency reads return
`EdgeRef`s in creation order; record reads return frozen records or None.
"""
from __future__ import annotations

import hashlib
import os
import struct
from dataclasses import fields
from time import perf_counter
from typing import Any

from reference.graph import keyspace as ks
from reference.graph import revlog
from reference.graph.adjacency import AdjList, live_latest
from reference.graph.at import At
from reference.graph.errors import CorruptRecord, InvalidRelation
from reference.graph.expected import ExpectedRecords
from reference.graph.records import Change, Edge, EdgeRef, KVEntry, Node
from reference.graph.redaction import GraphRedaction
from reference.graph.schema import load_relations
from reference.graph.view import GraphView

_u64 = struct.Struct(">Q").pack
_tuple_new = tuple.__new__  # builds EdgeRefs in C, skipping NamedTuple's Python-level __new__


class GraphReads:
    """Mixin: read methods over `self._read(fn)` (see store.py)."""

    _rels: Any
    _names: dict[int, str]
    _adj_cache: dict[tuple[bytes, bytes], tuple[EdgeRef, ...]]
    _adj_cache_size: int
    _expected: ExpectedRecords

    def _rel_id(self, view: GraphView, rel: str) -> int:
        if rel not in self._rels.ids:
            self._rels = view.rels = load_relations(view.txn)
        return self._rels.id(rel)

    def _rel_names(self, view: GraphView, entries: list[tuple[int, int, int]]) -> list[str | None]:
        """The id -> name list, reloaded if an entry names a relation registered elsewhere."""
        names = self._rels.names
        try:
            if None not in [names[e[0]] for e in entries]:
                return names
        except IndexError:
            pass
        self._rels = view.rels = load_relations(view.txn)
        names = self._rels.names
        for rid, _, _ in entries:
            self._rels.name(rid)  # raises InvalidRelation naming the bad id
        return names

    def _query_event(self, op: str, memory_id: str | None, entity_type: str | None, scope: str | None, t0: float,
                     **extra: Any) -> None:
        run_id, task_id = self._context
        self._event(None, op, memory_id, entity_type, scope, run_id, task_id, float(self._clock.now()), t0, **extra)

    # -- nodes and edges --------------------------------------------------------
    _redaction: GraphRedaction

    def get_node(self, id: str, at: At | None = None) -> Node | None:
        """Node `id` as it was at `at` (None if it did not exist then)."""
        t0 = perf_counter()
        id = self._redaction.key(id)

        def fn(view: GraphView) -> Node | None:
            nid, rev = self._hash(id), view.resolve(at)
            if not view.known(id, nid):
                self._expected.check_known(view, id, nid, rev)
                return None
            body = view.node_at(nid, rev)
            if body is None:
                self._expected.check_node(view, id, nid, rev)
                return None
            if body.get("id") != id:
                raise CorruptRecord(f"node record for {id!r} names {body.get('id')!r}")
            return _record(Node, body, id)
        node = self._read(fn)
        if self._emit_on:
            self._query_event("read", id, node.type if node else None, node.scope if node else None, t0,
                              kind="node", found=node is not None, at=str(at) if at else None)
        return node

    def get_edge(self, src: str, rel: str, dst: str, at: At | None = None) -> Edge | None:
        """The live edge with its payload at `at`, or None."""
        t0 = perf_counter()
        key = self._redaction.key
        src, rel, dst = key(src), key(rel), key(dst)

        def fn(view: GraphView) -> Edge | None:
            rid = self._rel_id(view, rel)
            sid, did, rev = self._hash(src), self._hash(dst), view.resolve(at)
            for key, nid in ((src, sid), (dst, did)):
                if not view.known(key, nid):
                    self._expected.check_known(view, key, nid, rev)
                    return None
            body = view.edge_at(ks.edge_id(sid, rid, did), rev)
            if body is None:
                self._expected.check_edge(view, ks.edge_id(sid, rid, did), rev, f"{src} -{rel}-> {dst}")
                return None
            if body.get("deleted"):
                return None
            return _record(Edge, body, src, src=src, rel=rel, dst=dst)
        edge = self._read(fn)
        if self._emit_on:
            self._query_event("read", src, "edge", None, t0, kind="edge", rel=rel, dst=dst, found=edge is not None,
                              at=str(at) if at else None)
        return edge

    def get_out(self, src: str, rel: str | None = None, at: At | None = None) -> list[EdgeRef]:
        """Live edges out of `src` (optionally only `rel`) at `at`, oldest first."""
        return self._adjacent(src, rel, at, ks.OUT, ks.OUT_COLD, True)

    def get_in(self, dst: str, rel: str | None = None, at: At | None = None) -> list[EdgeRef]:
        """Live edges into `dst` (optionally only `rel`) at `at`, oldest first."""
        return self._adjacent(dst, rel, at, ks.IN, ks.IN_COLD, False)

    def _adjacent(self, key: str, rel: str | None, at: At | None, hot: bytes, cold: bytes,
                  outgoing: bool) -> list[EdgeRef]:
        t0 = perf_counter()
        key, rel = self._redaction.key(key), self._redaction.key(rel)
        result = self._read(lambda view: self._edges(view, key, rel, at, hot, cold, outgoing))
        if self._emit_on:
            self._query_event("query", key, "edge", None, t0, kind="out" if outgoing else "in", rel=rel,
                              count=len(result), at=str(at) if at else None)
        return result

    def _edges(self, view: GraphView, key: str, rel: str | None, at: At | None, hot: bytes, cold: bytes,
               outgoing: bool) -> list[EdgeRef]:
        nid = self._hash(key)
        rid = None if rel is None else self._rel_id(view, rel)
        if self._names.get(nid) != key and not view.known(key, nid):
            self._expected.check_known(view, key, nid, view.resolve(at))  # also rejects a bad `at`
            return []
        hk = hot + _u64(nid)
        if at is None:
            value = view.txn.get(hk)
            if value is None:
                self._expected.check_list(view, key, nid, outgoing)
                return []
            cached = self._adj_cache.get((hk, value))
            if cached is not None:
                return list(cached) if rid is None else [r for r in cached if r.rel == rel]
            entries = live_latest(hk, value)
        else:
            cached, entries = None, view.adjacency(hot, cold, nid, view.resolve(at))
        rels = self._rel_names(view, entries)
        names, name_of, new = self._names, view.name_of, _tuple_new
        if outgoing:
            refs = [new(EdgeRef, (key, rels[r], names.get(o) or name_of(o, hk), v)) for r, o, v in entries]
        else:
            refs = [new(EdgeRef, (names.get(o) or name_of(o, hk), rels[r], key, v)) for r, o, v in entries]
        if at is None and cached is None and self._adj_cache_size:
            if len(self._adj_cache) >= self._adj_cache_size:
                self._adj_cache.clear()
            self._adj_cache[(hk, value)] = tuple(refs)
        if rid is not None:
            name = rels[rid]
            refs = [r for r in refs if r.rel == name]
        return refs

    # -- policy KV ----------------------------------------------------------------
    def get_kv_latest(self, scope: str, namespace: str, key: str, at: At | None = None) -> KVEntry | None:
        """The value of a policy entry at `at` (latest by default); None if unset or deleted then."""
        t0 = perf_counter()
        red = self._redaction.key
        scope, namespace, key = red(scope), red(namespace), red(key)
        path = ks.kv_path(scope, namespace, key)

        def fn(view: GraphView) -> KVEntry | None:
            rev = view.resolve(at)
            body = view.kv_at(path, rev)
            if body is None:
                self._expected.check_kv(view, path, rev)
            return None if body is None or body.get("deleted") else _record(KVEntry, body, key, scope=scope,
                                                                            namespace=namespace, key=key)
        entry = self._read(fn)
        if self._emit_on:
            self._query_event("read", f"kv:{scope}:{namespace}:{key}", namespace, scope, t0, kind="kv",
                              found=entry is not None, at=str(at) if at else None)
        return entry

    def list_kv(self, scope: str, namespace: str, at: At | None = None) -> list[KVEntry]:
        """Every live entry of scope/namespace at `at`, sorted by key (UTF-8 byte order)."""
        t0 = perf_counter()
        scope, namespace = self._redaction.key(scope), self._redaction.key(namespace)
        prefix = ks.kv_prefix(scope, namespace)

        def fn(view: GraphView) -> list[KVEntry]:
            rev = view.resolve(at)
            out = []
            for path in view.kv_paths(prefix):
                body = view.kv_at(path, rev)
                if body is not None and not body.get("deleted"):
                    key = ks.split_kv_path(path)[2]
                    out.append(_record(KVEntry, body, key, scope=scope, namespace=namespace, key=key))
            return out
        entries = self._read(fn)
        if self._emit_on:
            self._query_event("query", f"kv:{scope}:{namespace}", namespace, scope, t0, kind="kv_list",
                              count=len(entries), at=str(at) if at else None)
        return entries

    # -- time -----------------------------------------------------------------------
    def revision(self) -> int:
        """The newest revision (0 for an empty store)."""
        return self._read(lambda view: view.head()[0])

    def resolve(self, at: At) -> int:
        """The revision that `at` names (an `At.ts` maps to the last write at or before it)."""
        return self._read(lambda view: view.head()[0] if at is None else view.resolve(at))

    def diff_since(self, since: At, until: At | None = None) -> list[Change]:
        """Every write after `since` (and up to `until`, default latest), oldest first.

        `since=At.ts(x)` means writes stamped later than x; `At.rev(n)` writes after revision n."""
        t0 = perf_counter()
        if not isinstance(since, At):
            raise TypeError(f"diff_since takes At.ts(x) or At.rev(n), got {type(since).__name__} {since!r}")

        def fn(view: GraphView) -> list[Change]:
            start = view.resolve(since)
            end = view.resolve(until) if until is not None else view.head()[0]
            return [self._change(view, rev) for rev in range(start + 1, end + 1)]
        changes = self._read(fn)
        if self._emit_on:
            self._query_event("query", None, "change", None, t0, kind="diff", since=str(since), count=len(changes))
        return changes

    def _change(self, view: GraphView, rev: int) -> Change:
        key = revlog.log_key(rev)
        value = view.txn.get(key)
        if value is None:
            raise CorruptRecord(f"revision log entry {rev} is missing")
        ts, op, overwrite, run_id, task_id, subject = revlog.decode(rev, value)
        fields: dict[str, Any] = {}
        try:
            if op == "put_node":
                (nid,) = revlog.NODE_SUBJECT.unpack(subject)
                fields["key"] = view.name_of(nid, key)
            elif op in ("put_edge", "delete_edge", "supersede"):
                sid, rid, did = revlog.EDGE_SUBJECT.unpack(subject)
                fields.update(src=view.name_of(sid, key), rel=self._rels.name(rid), dst=view.name_of(did, key))
            else:
                fields.update(zip(("scope", "namespace", "kv_key"), ks.split_kv_path(subject)))
        except (ValueError, InvalidRelation) as exc:
            raise CorruptRecord(f"revision log entry {rev}: bad subject ({exc})") from None
        return Change(rev, ts, op, overwrite, run_id, task_id, **fields)

    # -- snapshot and statistics -------------------------------------------------
    def export_snapshot(self, path: str | os.PathLike, at: At | None = None) -> dict[str, Any]:
        """Write the state at `at` (latest by default) as a snapshot file; returns its summary.

        The same state gives the same bytes; read it back with `SnapshotReader.open(path)`."""
        from reference.graph.snapshot import writer as snapshot_writer  # only exports need it: keeps `open` light

        t0 = perf_counter()

        def fn(view: GraphView) -> tuple[bytes, dict[str, Any]]:
            rev = view.resolve(at)
            return snapshot_writer.build(view, view.head()[0] if rev is None else rev, load_relations(view.txn))
        data, summary = self._read(fn)
        snapshot_writer.write(data, path)
        summary.update(path=os.fspath(path), sha256=hashlib.sha256(data).hexdigest())
        if self._emit_on:
            self._query_event("query", None, "snapshot", None, t0, kind="snapshot", revision=summary["revision"])
        return summary

    def stats(self) -> dict[str, Any]:
        """Counts for diagnostics: revision, nodes, keys, adjacency entries and tombstones (full scan)."""
        def fn(view: GraphView) -> dict[str, Any]:
            head, last_ts = view.head()
            out: dict[str, Any] = {"revision": head, "last_ts": last_ts if head else None,
                                   "relations": len(load_relations(view.txn))}
            out["nodes"] = sum(1 for _ in view.iter_ids(ks.NODE))
            out["keys"] = sum(1 for _ in view.iter_ids(ks.KEY))
            for name, prefix in (("out", ks.OUT), ("in", ks.IN), ("out_cold", ks.OUT_COLD), ("in_cold", ks.IN_COLD)):
                lists = entries = tombstones = 0
                for nid in view.iter_ids(prefix):
                    k = prefix + ks.u64(nid)
                    adj = AdjList.decode(k, view.txn.get(k))
                    lists, entries, tombstones = lists + 1, entries + adj.count, tombstones + adj.tombstones
                out[f"{name}_lists"], out[f"{name}_entries"], out[f"{name}_tombstones"] = lists, entries, tombstones
            return out
        result = self._read(fn)
        result["map_size"] = self._env.info()["map_size"]
        result["file_bytes"] = os.path.getsize(os.path.join(self._env.path(), "data.mdb"))
        return result

    def relations(self) -> dict[str, int]:
        """The relation intern table, name -> id."""
        return self._read(lambda view: dict(load_relations(view.txn).ids))


def _record(cls: type, body: dict, what: str, **extra: Any) -> Any:
    """Build a frozen record from a decoded body without the dataclass __init__ (a hot path)."""
    body.update(extra)
    if body.keys() != _FIELDS[cls]:
        raise CorruptRecord(f"{cls.__name__} record for {what!r} has fields {sorted(body)}")
    obj = object.__new__(cls)
    obj.__dict__.update(body)
    return obj


_FIELDS = {cls: {f.name for f in fields(cls)} for cls in (Node, Edge, KVEntry)}
