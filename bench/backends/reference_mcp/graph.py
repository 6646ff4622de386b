"""GraphOps, PolicyOps and SnapshotOps of `reference-mcp`: the seed 003 tools over MCP.

Values are normalised exactly as the in-process reference backend does
(bench/backends/reference/graph.py), so both answer every step alike.
"""
from __future__ import annotations

from typing import Any

from bench.backends.ops.graph import GraphOps, PolicyOps, SnapshotOps


def _node(row: dict[str, Any] | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {"type": row["type"], "payload": row["payload"], "superseded_by": row["superseded_by"]}


def _out(rows: list[dict[str, Any]]) -> list[list[str]]:
    return sorted([r["rel"], r["dst"]] for r in rows)


def _in(rows: list[dict[str, Any]]) -> list[list[str]]:
    return sorted([r["src"], r["rel"]] for r in rows)


def _at(at: float | None) -> dict[str, Any]:
    return {} if at is None else {"at": at}


class McpGraphPart(GraphOps, PolicyOps, SnapshotOps):
    """Mixin of `ReferenceMcpBackend`; `self.call(tool, **args)` is one MCP tool call."""

    call: Any

    def graph_put_node(self, id, type, payload=None, scope=None) -> None:
        self.call("graph_put_node", id=id, type=type, payload=payload, **({} if scope is None else {"scope": scope}))

    def graph_get_node(self, id, at=None):
        return _node(self.call("graph_get_node", id=id, **_at(at)))

    def graph_put_edge(self, src, rel, dst, payload=None) -> None:
        self.call("graph_put_edge", src=src, rel=rel, dst=dst, payload=payload)

    def graph_delete_edge(self, src, rel, dst) -> None:
        self.call("graph_delete_edge", src=src, rel=rel, dst=dst)

    def graph_supersede(self, new_id, old_id) -> None:
        self.call("graph_supersede", new_id=new_id, old_id=old_id)

    def graph_get_out(self, src, rel=None, at=None):
        return _out(self.call("graph_get_out", src=src, **({} if rel is None else {"rel": rel}), **_at(at)))

    def graph_get_in(self, dst, rel=None, at=None):
        return _in(self.call("graph_get_in", dst=dst, **({} if rel is None else {"rel": rel}), **_at(at)))

    def policy_put(self, scope, namespace, key, payload) -> None:
        self.call("policy_put", scope=scope, namespace=namespace, key=key, payload=payload)

    def policy_get(self, scope, namespace, key, at=None):
        entry = self.call("policy_get", scope=scope, namespace=namespace, key=key, **_at(at))
        return None if entry is None else entry["payload"]

    def policy_list(self, scope, namespace, at=None):
        return {e["key"]: e["payload"] for e in self.call("policy_list", scope=scope, namespace=namespace, **_at(at))}

    def snapshot_export(self, name: str) -> dict[str, Any]:
        return self.call("graph_export_snapshot", name=name)

    def snapshot_get_node(self, name, id):
        return _node(self.call("snapshot_get_node", name=name, id=id))

    def snapshot_get_out(self, name, src, rel=None):
        return _out(self.call("snapshot_get_out", name=name, src=src, **({} if rel is None else {"rel": rel})))

    def snapshot_get_in(self, name, dst, rel=None):
        return _in(self.call("snapshot_get_in", name=name, dst=dst, **({} if rel is None else {"rel": rel})))
