"""The write half of `GraphStore`: one method per write op, each one revision.

Each method validates its arguments, then hands a closure to `self._write`,
which runs it on the thread's open batch or in a transaction of its own (see
store.py). Telemetry events are queued on the writer and emitted at commit.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from time import perf_counter
from typing import Any

from reference.graph import keyspace as ks
from reference.graph.errors import NotFound
from reference.graph.redaction import GraphRedaction
from reference.graph.writer import GraphWriter
from reference.telemetry import TelemetryEvent


class GraphWrites:
    """Mixin: write methods over `self._write(op)`."""

    _context: tuple[str | None, str | None]
    _emit_on: bool
    _sink: Any
    _write: Callable[[Callable[[GraphWriter], Any]], Any]
    _redaction: GraphRedaction

    def _ctx(self, run_id: str | None, task_id: str | None) -> tuple[str | None, str | None]:
        key = self._redaction.key
        return (key(run_id) if run_id is not None else self._context[0],
                key(task_id) if task_id is not None else self._context[1])

    def _event(self, w: GraphWriter | None, op: str, memory_id: str | None, entity_type: str | None,
               scope: str | None, run_id: str | None, task_id: str | None, ts: float, t0: float,
               **extra: Any) -> None:
        event = TelemetryEvent(op, memory_id, entity_type, scope, run_id, task_id, ts,
                               (perf_counter() - t0) * 1000.0, "store", extra)
        if w is None:
            self._sink.emit(event)
        else:
            w.events.append(event)

    # -- writes ---------------------------------------------------------------
    def put_node(self, id: str, type: str, payload: Any, scope: str | None = None, ts: float | None = None,
                 run_id: str | None = None, task_id: str | None = None) -> int:
        """Create or overwrite node `id`; the old version stays readable at earlier revisions. Returns the revision."""
        run_id, task_id = self._ctx(run_id, task_id)
        key = self._redaction.key
        id, type, scope, payload = key(id), key(type), key(scope), self._redaction.payload(payload)

        def op(w: GraphWriter) -> int:
            t0 = perf_counter()
            rev, overwrite = w.put_node(id, type, payload, scope, ts, run_id, task_id)
            if self._emit_on:
                self._event(w, "overwrite" if overwrite else "write", id, type, scope, run_id, task_id,
                            w.last_ts, t0, rev=rev, kind="node")
            return rev
        return self._write(op)

    def put_edge(self, src: str, rel: str, dst: str, payload: Any = None, ts: float | None = None,
                 run_id: str | None = None, task_id: str | None = None) -> int:
        """Create edge `src -rel-> dst` (or replace the payload of the live one). Returns the revision.

        `rel` must be interned (the ten of §4.4 or `register_relation`), else `InvalidRelation`.
        Endpoints need not exist as nodes (logged at INFO)."""
        return self._put_edge(src, rel, dst, payload, ts, run_id, task_id, "put_edge")

    def _put_edge(self, src: str, rel: str, dst: str, payload: Any, ts: float | None, run_id: str | None,
                  task_id: str | None, kind: str) -> int:
        run_id, task_id = self._ctx(run_id, task_id)
        key = self._redaction.key
        src, rel, dst, payload = key(src), key(rel), key(dst), self._redaction.payload(payload)

        def op(w: GraphWriter) -> int:
            t0 = perf_counter()
            if kind == "supersede":
                if src == dst:
                    raise ValueError(f"a node cannot supersede itself ({src})")
                for key in (src, dst):
                    if not w.node_exists(key):
                        raise NotFound(f"supersede({src!r}, {dst!r}): node {key!r} does not exist")
            rev, overwrite = w.put_edge(src, rel, dst, payload, ts, run_id, task_id, kind)
            if self._emit_on:
                if kind == "supersede":
                    self._event(w, "overwrite", dst, None, None, run_id, task_id, w.last_ts, t0, rev=rev,
                                kind="supersede", superseded_by=src)
                else:
                    self._event(w, "overwrite" if overwrite else "write", src, "edge", None, run_id, task_id,
                                w.last_ts, t0, rev=rev, kind="edge", rel=rel, dst=dst)
            return rev
        return self._write(op)

    def put_edges(self, edges: Iterable[tuple | dict]) -> list[int]:
        """Bulk `put_edge` in one transaction: tuples (src, rel, dst[, payload]) or dicts of put_edge's arguments."""
        revs: list[int] = []
        with self.batch():
            for e in edges:
                revs.append(self.put_edge(**e) if isinstance(e, dict) else self.put_edge(*e))
        return revs

    def delete_edge(self, src: str, rel: str, dst: str, ts: float | None = None, run_id: str | None = None,
                    task_id: str | None = None) -> int:
        """Delete the live edge (a tombstone; history keeps it). `NotFound` if it is not live."""
        run_id, task_id = self._ctx(run_id, task_id)
        key = self._redaction.key
        src, rel, dst = key(src), key(rel), key(dst)

        def op(w: GraphWriter) -> int:
            t0 = perf_counter()
            rev = w.delete_edge(src, rel, dst, ts, run_id, task_id)
            if self._emit_on:
                self._event(w, "delete", src, "edge", None, run_id, task_id, w.last_ts, t0, rev=rev, kind="edge",
                            rel=rel, dst=dst)
            return rev
        return self._write(op)

    def supersede(self, new_id: str, old_id: str, payload: Any = None, ts: float | None = None,
                  run_id: str | None = None, task_id: str | None = None) -> int:
        """Mark node `old_id` superseded by `new_id` (both must exist): writes the edge
        `new_id -supersedes-> old_id` and, in the same revision, a node version of `old_id`
        with `superseded_by=new_id`. Deleting that edge clears the mark again."""
        return self._put_edge(new_id, "supersedes", old_id, payload, ts, run_id, task_id, "supersede")

    def put_kv(self, scope: str, namespace: str, key: str, payload: Any, ts: float | None = None,
               run_id: str | None = None, task_id: str | None = None) -> int:
        """Set policy entry scope/namespace/key (e.g. namespace "decision"); history keeps old values."""
        return self._put_kv(scope, namespace, key, payload, ts, run_id, task_id, False)

    def delete_kv(self, scope: str, namespace: str, key: str, ts: float | None = None, run_id: str | None = None,
                  task_id: str | None = None) -> int:
        """Retract a policy entry (a tombstone version). `NotFound` if it is not live."""
        return self._put_kv(scope, namespace, key, None, ts, run_id, task_id, True)

    def _put_kv(self, scope: str, namespace: str, key: str, payload: Any, ts: float | None, run_id: str | None,
                task_id: str | None, delete: bool) -> int:
        run_id, task_id = self._ctx(run_id, task_id)
        red = self._redaction.key
        scope, namespace, key, payload = red(scope), red(namespace), red(key), self._redaction.payload(payload)
        path = ks.kv_path(scope, namespace, key)

        def op(w: GraphWriter) -> int:
            t0 = perf_counter()
            rev, overwrite = w.put_kv(path, payload, ts, run_id, task_id, delete)
            if self._emit_on:
                kind = "delete" if delete else "overwrite" if overwrite else "write"
                self._event(w, kind, f"kv:{scope}:{namespace}:{key}", namespace, scope, run_id, task_id,
                            w.last_ts, t0, rev=rev, kind="kv")
            return rev
        return self._write(op)

    def register_relation(self, name: str) -> int:
        """Intern a new relation name (idempotent); returns its id. Ids are never reused."""
        name = self._redaction.key(name)
        return self._write(lambda w: w.register_relation(name))

    def compact(self) -> dict[str, int]:
        """Compact every adjacency list that holds tombstones (lossless: see README)."""
        return self._write(lambda w: w.compact_all())
