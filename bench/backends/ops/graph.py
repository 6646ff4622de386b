"""Graph, policy and snapshot operations of seed 003, in plain values.

Points in time are Unix seconds on the scenario clock (`at=None` is now):
a read at `at` sees every write whose timestamp is <= `at`. Revisions are a
backend's own business and never appear here, so any backend can answer.

Normalised values: a node is {"type", "payload", "superseded_by"}; `get_out`
gives sorted [rel, dst] pairs and `get_in` sorted [src, rel] pairs; a policy
entry is its payload.
"""
from __future__ import annotations

from typing import Any


class GraphOps:
    """Capability GRAPH (and POINT_IN_TIME for reads with `at`)."""

    def graph_put_node(self, id: str, type: str, payload: Any = None, scope: str | None = None) -> None:
        raise NotImplementedError

    def graph_get_node(self, id: str, at: float | None = None) -> dict[str, Any] | None:
        raise NotImplementedError

    def graph_put_edge(self, src: str, rel: str, dst: str, payload: Any = None) -> None:
        raise NotImplementedError

    def graph_delete_edge(self, src: str, rel: str, dst: str) -> None:
        raise NotImplementedError

    def graph_supersede(self, new_id: str, old_id: str) -> None:
        raise NotImplementedError

    def graph_get_out(self, src: str, rel: str | None = None, at: float | None = None) -> list[list[str]]:
        raise NotImplementedError

    def graph_get_in(self, dst: str, rel: str | None = None, at: float | None = None) -> list[list[str]]:
        raise NotImplementedError

    # Batches and traversal: these defaults call the single operations above, so every GRAPH backend
    # answers them; a backend with a bulk path (one transaction, ...) overrides them.
    def graph_put_nodes(self, nodes: list[tuple[str, str, Any]]) -> None:
        """Write (id, type, payload) nodes, in order."""
        for id, type, payload in nodes:
            self.graph_put_node(id, type, payload)

    def graph_put_edges(self, edges: list[tuple[str, str, str]]) -> None:
        """Write (src, rel, dst) edges, in order."""
        for src, rel, dst in edges:
            self.graph_put_edge(src, rel, dst)

    def graph_delete_edges(self, edges: list[tuple[str, str, str]]) -> None:
        """Delete (src, rel, dst) edges, in order."""
        for src, rel, dst in edges:
            self.graph_delete_edge(src, rel, dst)

    def graph_traverse(self, src: str, depth: int, rel: str | None = None, direction: str = "out",
                       at: float | None = None) -> list[str]:
        """Every node within 1..`depth` hops of `src` along live edges (not `src` itself), sorted.

        Breadth-first over `graph_get_out` (or `graph_get_in` for direction "in"), one call per node reached."""
        step = self.graph_get_out if direction == "out" else self.graph_get_in
        far = 1 if direction == "out" else 0   # get_out gives [rel, dst], get_in [src, rel]
        seen, frontier = {src}, [src]
        for _ in range(depth):
            nxt = []
            for node in frontier:
                for pair in step(node, rel, at):
                    if pair[far] not in seen:
                        seen.add(pair[far])
                        nxt.append(pair[far])
            frontier = nxt
        seen.discard(src)
        return sorted(seen)


class PolicyOps:
    """Capability POLICY_KV: decisions, constraints and procedures by scope/namespace/key."""

    def policy_put(self, scope: str, namespace: str, key: str, payload: Any) -> None:
        raise NotImplementedError

    def policy_get(self, scope: str, namespace: str, key: str, at: float | None = None) -> Any:
        raise NotImplementedError

    def policy_list(self, scope: str, namespace: str, at: float | None = None) -> dict[str, Any]:
        raise NotImplementedError


class SnapshotOps:
    """Capability SNAPSHOT: export a read-only snapshot by name and read it back independently."""

    def snapshot_export(self, name: str) -> dict[str, Any]:
        raise NotImplementedError

    def snapshot_get_node(self, name: str, id: str) -> dict[str, Any] | None:
        raise NotImplementedError

    def snapshot_get_out(self, name: str, src: str, rel: str | None = None) -> list[list[str]]:
        raise NotImplementedError

    def snapshot_get_in(self, name: str, dst: str, rel: str | None = None) -> list[list[str]]:
        raise NotImplementedError
