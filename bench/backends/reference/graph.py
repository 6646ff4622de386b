"""The reference store's LMDB graph layer (reference.graph) behind GraphOps, PolicyOps, SnapshotOps."""
from __future__ import annotations

import re
from typing import Any

from reference.graph import At, GraphStore, SnapshotReader
from reference.graph.errors import MapFull

from bench.backends.ops.graph import GraphOps, PolicyOps, SnapshotOps
from bench.backends.reference.part import ReferencePart


# the MCP server's rule for snapshot names: a name is a file in snapshots/, never a path
_SNAPSHOT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")


def _at(ts: float | None) -> At | None:
    return None if ts is None else At.ts(ts)


def _node(node: Any) -> dict[str, Any] | None:
    if node is None:
        return None
    return {"type": node.type, "payload": node.payload, "superseded_by": node.superseded_by}


class GraphPart(ReferencePart, GraphOps, PolicyOps, SnapshotOps):
    """Opens `graph/` (LMDB) beside the store; snapshots go to `snapshots/<name>.snap`."""

    def _on_open(self) -> None:
        super()._on_open()
        self.graph = GraphStore.open(self.data_dir / "graph", clock=self.clock, telemetry=self.telemetry,
                                     redactor=self.store.redactor, redact=self.store.redactor is not None)
        self._snapshots: dict[str, SnapshotReader] = {}

    def _on_close(self) -> None:
        for reader in self._snapshots.values():
            reader.close()
        self.graph.close()
        super()._on_close()

    def _on_context(self, scope, run_id, task_id, session_id) -> None:
        super()._on_context(scope, run_id, task_id, session_id)
        self.graph.set_context(run_id=run_id, task_id=task_id)  # graph records carry the run, as seed 003 asks

    # graph -----------------------------------------------------------------
    def graph_put_node(self, id, type, payload=None, scope=None) -> None:
        self.graph.put_node(id, type, payload, scope=scope)

    def graph_get_node(self, id, at=None):
        return _node(self.graph.get_node(id, at=_at(at)))

    def graph_put_edge(self, src, rel, dst, payload=None) -> None:
        self.graph.put_edge(src, rel, dst, payload)

    def graph_delete_edge(self, src, rel, dst) -> None:
        self.graph.delete_edge(src, rel, dst)

    def graph_supersede(self, new_id, old_id) -> None:
        self.graph.supersede(new_id, old_id)

    def _batch(self, write, rows) -> None:
        """All of `rows` in one LMDB transaction; a batch that filled the map was rolled back: run it again."""
        for attempt in range(3):
            try:
                with self.graph.batch():
                    for row in rows:
                        write(*row)
                return
            except MapFull:
                if attempt == 2:
                    raise

    def graph_put_nodes(self, nodes) -> None:
        self._batch(self.graph.put_node, nodes)

    def graph_put_edges(self, edges) -> None:
        self._batch(self.graph.put_edge, edges)

    def graph_delete_edges(self, edges) -> None:
        self._batch(self.graph.delete_edge, edges)

    def graph_get_out(self, src, rel=None, at=None):
        return sorted([e.rel, e.dst] for e in self.graph.get_out(src, rel, at=_at(at)))

    def graph_get_in(self, dst, rel=None, at=None):
        return sorted([e.src, e.rel] for e in self.graph.get_in(dst, rel, at=_at(at)))

    # policy ----------------------------------------------------------------
    def policy_put(self, scope, namespace, key, payload) -> None:
        self.graph.put_kv(scope, namespace, key, payload)

    def policy_get(self, scope, namespace, key, at=None):
        entry = self.graph.get_kv_latest(scope, namespace, key, at=_at(at))
        return None if entry is None else entry.payload

    def policy_list(self, scope, namespace, at=None):
        return {e.key: e.payload for e in self.graph.list_kv(scope, namespace, at=_at(at))}

    # snapshots -------------------------------------------------------------
    def snapshot_export(self, name: str) -> dict[str, Any]:
        if not isinstance(name, str) or not _SNAPSHOT_NAME.fullmatch(name):
            raise ValueError(f"snapshot name {str(name)[:60]!r} is not letters, digits, '.', '_', '-' "
                             "(at most 128, starting with a letter or digit)")
        path = self.data_dir / "snapshots" / f"{name}.snap"
        path.parent.mkdir(parents=True, exist_ok=True)
        if name in self._snapshots:
            self._snapshots.pop(name).close()
        summary = self.graph.export_snapshot(path)
        self._snapshots[name] = SnapshotReader.open(path)  # read back with mmap alone, no LMDB
        return summary

    def _reader(self, name: str) -> SnapshotReader:
        if name not in self._snapshots:
            raise KeyError(f"no snapshot named {name!r} was exported in this run")
        return self._snapshots[name]

    def snapshot_get_node(self, name, id):
        return _node(self._reader(name).get_node(id))

    def snapshot_get_out(self, name, src, rel=None):
        return sorted([e.rel, e.dst] for e in self._reader(name).get_out(src, rel))

    def snapshot_get_in(self, name, dst, rel=None):
        return sorted([e.src, e.rel] for e in self._reader(name).get_in(dst, rel))
