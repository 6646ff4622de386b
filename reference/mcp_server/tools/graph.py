"""Graph tools over the seed 003 memory API (§5.1): nodes, edges, supersede, diff, snapshot.

Names follow the seed's API with a `graph_` prefix (policy KV is in
`tools/policy.py`). Every write returns the revision it created; every read
takes an optional `at` (see `at_arg`). `run_id` / `task_id` default to the
session's (set by the harness); `ts` defaults to the server clock.
Extension: `graph_get_edge`, the one read that returns an edge's payload.
Snapshots are in `tools/snapshot.py`.
"""
from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from reference.mcp_server.context import ServerContext
from reference.mcp_server.limits import check_write_ts
from reference.mcp_server.registry import ToolRegistry
from reference.mcp_server.routing import routing
from reference.mcp_server.tools.at_arg import AtArg, SinceArg, parse_at

NodeId = Annotated[str, Field(description='Canonical key, e.g. "file:src/a.py" or "sym:src/a.py#f:function:1:9"')]
Rel = Annotated[str, Field(description="Relation: defines, references, calls, imports, tests, implements, "
                                       "constrains, decided_for, derived_from, supersedes")]
RelFilter = Annotated[str | None, Field(description="Only edges of this relation")]
Payload = Annotated[Any, Field(description="Any JSON value")]
# Repeated in 7 tools' schemas, so kept short; the bounds (not before the last write, at most a day
# ahead of the clock) are in the error a bad `ts` gets and in README.md "Limits".
Ts = Annotated[float | None, Field(description="Write time, Unix seconds (default: now)")]
RunId = Annotated[str | None, Field(description="Run id (default: the session's)")]
TaskId = Annotated[str | None, Field(description="Task id (default: the session's)")]


def register(server: ToolRegistry, ctx: ServerContext) -> None:
    @server.tool(routing=routing("graph_put_node"))
    def graph_put_node(id: NodeId, type: Annotated[str, Field(description="Entity type: file, symbol, module, "
                                                                           "decision, ...")],
                       payload: Payload = None, scope: Annotated[str | None, Field(description="Scope")] = None,
                       ts: Ts = None, run_id: RunId = None, task_id: TaskId = None) -> dict[str, Any]:
        """Create or overwrite a node (older versions stay readable with `at`). Returns its revision."""
        ts = check_write_ts("ts", ts, ctx.clock.now())
        rev = ctx.graph().put_node(id, type, payload, scope=scope, ts=ts, run_id=run_id, task_id=task_id)
        return {"id": id, "rev": rev}

    @server.tool(routing=routing("graph_get_node"))
    def graph_get_node(id: NodeId, at: AtArg = None) -> dict[str, Any] | None:
        """A node as it is now (or was at `at`), with `superseded_by`; null if it did not exist."""
        node = ctx.graph().get_node(id, at=parse_at("at", at))
        return node.to_dict() if node is not None else None

    @server.tool(routing=routing("graph_put_edge"))
    def graph_put_edge(src: NodeId, rel: Rel, dst: NodeId, payload: Payload = None, ts: Ts = None,
                       run_id: RunId = None, task_id: TaskId = None) -> dict[str, Any]:
        """Create the edge src -rel-> dst (or replace the payload of the live one). Returns its revision."""
        ts = check_write_ts("ts", ts, ctx.clock.now())
        rev = ctx.graph().put_edge(src, rel, dst, payload, ts=ts, run_id=run_id, task_id=task_id)
        return {"src": src, "rel": rel, "dst": dst, "rev": rev}

    @server.tool()
    def graph_get_edge(src: NodeId, rel: Rel, dst: NodeId, at: AtArg = None) -> dict[str, Any] | None:
        """One edge with its payload as it is now (or was at `at`); null if there is none."""
        edge = ctx.graph().get_edge(src, rel, dst, at=parse_at("at", at))
        return edge.to_dict() if edge is not None else None

    @server.tool(routing=routing("graph_get_out"))
    def graph_get_out(src: NodeId, rel: RelFilter = None, at: AtArg = None) -> list[dict[str, Any]]:
        """Live edges out of a node (optionally one relation), oldest first: src, rel, dst, rev."""
        return [e.to_dict() for e in ctx.graph().get_out(src, rel, at=parse_at("at", at))]

    @server.tool(routing=routing("graph_get_in"))
    def graph_get_in(dst: NodeId, rel: RelFilter = None, at: AtArg = None) -> list[dict[str, Any]]:
        """Live edges into a node (optionally one relation), oldest first: src, rel, dst, rev."""
        return [e.to_dict() for e in ctx.graph().get_in(dst, rel, at=parse_at("at", at))]

    @server.tool(routing=routing("graph_delete_edge"))
    def graph_delete_edge(src: NodeId, rel: Rel, dst: NodeId, ts: Ts = None, run_id: RunId = None,
                          task_id: TaskId = None) -> dict[str, Any]:
        """Delete a live edge (a tombstone; reads `at` earlier revisions still see it). Returns the revision."""
        ts = check_write_ts("ts", ts, ctx.clock.now())
        return {"rev": ctx.graph().delete_edge(src, rel, dst, ts=ts, run_id=run_id, task_id=task_id)}

    @server.tool(routing=routing("graph_supersede"))
    def graph_supersede(new_id: NodeId, old_id: NodeId, payload: Payload = None, ts: Ts = None,
                        run_id: RunId = None, task_id: TaskId = None) -> dict[str, Any]:
        """Mark node old_id as superseded by new_id (both must exist). Returns the revision."""
        ts = check_write_ts("ts", ts, ctx.clock.now())
        rev = ctx.graph().supersede(new_id, old_id, payload, ts=ts, run_id=run_id, task_id=task_id)
        return {"new_id": new_id, "old_id": old_id, "rev": rev}

    @server.tool(routing=routing("graph_diff_since"))
    def graph_diff_since(since: SinceArg, until: AtArg = None) -> list[dict[str, Any]]:
        """Every graph and policy write after `since` (up to `until`), oldest first."""
        return [c.to_dict() for c in ctx.graph().diff_since(parse_at("since", since), parse_at("until", until))]
