"""Graph, policy and snapshot steps of seed 003, named as the MCP server's tools.

Reads take `at` (Unix seconds on the scenario clock); a read with `at` also
needs POINT_IN_TIME. `graph_export_snapshot` writes a named snapshot that the
`snapshot_*` reads open independently of the live store.
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from bench.backends.capabilities import Capability as C
from bench.backends.interface import Unsupported
from bench.steps.registry import Outcome, step


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PutNode(_Args):
    id: str
    type: str
    payload: Any = None
    scope: str | None = None


class NodeRead(_Args):
    id: str
    at: float | None = None


class Edge(_Args):
    src: str
    rel: str
    dst: str


class PutEdge(Edge):
    payload: Any = None


class Supersede(_Args):
    new_id: str
    old_id: str


class OutRead(_Args):
    src: str
    rel: str | None = None
    at: float | None = None


class InRead(_Args):
    dst: str
    rel: str | None = None
    at: float | None = None


class PolicyPut(_Args):
    scope: str
    namespace: str
    key: str
    payload: Any


class PolicyGet(_Args):
    scope: str
    namespace: str
    key: str
    at: float | None = None


class PolicyList(_Args):
    scope: str
    namespace: str
    at: float | None = None


class Export(_Args):
    name: str


class SnapNode(_Args):
    name: str
    id: str


class SnapOut(_Args):
    name: str
    src: str
    rel: str | None = None


class SnapIn(_Args):
    name: str
    dst: str
    rel: str | None = None


def _pit(ctx, at: float | None) -> None:
    if at is not None and not ctx.backend.supports(C.POINT_IN_TIME):
        raise Unsupported(C.POINT_IN_TIME, ctx.backend.label)


@step("graph_put_node", args=PutNode, requires=(C.GRAPH,), op="write")
def graph_put_node(ctx, a: PutNode) -> Outcome:
    ctx.backend.graph_put_node(a.id, a.type, a.payload, a.scope)
    return Outcome(created_id=a.id)


@step("graph_get_node", args=NodeRead, requires=(C.GRAPH,), op="read")
def graph_get_node(ctx, a: NodeRead) -> Outcome:
    _pit(ctx, a.at)
    return Outcome(value=ctx.backend.graph_get_node(a.id, a.at))


@step("graph_put_edge", args=PutEdge, requires=(C.GRAPH,), op="write")
def graph_put_edge(ctx, a: PutEdge) -> Outcome:
    ctx.backend.graph_put_edge(a.src, a.rel, a.dst, a.payload)
    return Outcome()


@step("graph_delete_edge", args=Edge, requires=(C.GRAPH,), op="delete")
def graph_delete_edge(ctx, a: Edge) -> Outcome:
    ctx.backend.graph_delete_edge(a.src, a.rel, a.dst)
    return Outcome()


@step("graph_supersede", args=Supersede, requires=(C.GRAPH,), op="overwrite")
def graph_supersede(ctx, a: Supersede) -> Outcome:
    ctx.backend.graph_supersede(a.new_id, a.old_id)
    return Outcome()


@step("graph_get_out", args=OutRead, requires=(C.GRAPH,), op="query")
def graph_get_out(ctx, a: OutRead) -> Outcome:
    _pit(ctx, a.at)
    return Outcome(value=ctx.backend.graph_get_out(a.src, a.rel, a.at))


@step("graph_get_in", args=InRead, requires=(C.GRAPH,), op="query")
def graph_get_in(ctx, a: InRead) -> Outcome:
    _pit(ctx, a.at)
    return Outcome(value=ctx.backend.graph_get_in(a.dst, a.rel, a.at))


@step("policy_put", args=PolicyPut, requires=(C.POLICY_KV,), op="write")
def policy_put(ctx, a: PolicyPut) -> Outcome:
    ctx.backend.policy_put(a.scope, a.namespace, a.key, a.payload)
    return Outcome()


@step("policy_get", args=PolicyGet, requires=(C.POLICY_KV,), op="read")
def policy_get(ctx, a: PolicyGet) -> Outcome:
    _pit(ctx, a.at)
    return Outcome(value=ctx.backend.policy_get(a.scope, a.namespace, a.key, a.at))


@step("policy_list", args=PolicyList, requires=(C.POLICY_KV,), op="query")
def policy_list(ctx, a: PolicyList) -> Outcome:
    _pit(ctx, a.at)
    return Outcome(value=ctx.backend.policy_list(a.scope, a.namespace, a.at))


@step("graph_export_snapshot", args=Export, requires=(C.SNAPSHOT,), op="read")
def graph_export_snapshot(ctx, a: Export) -> Outcome:
    return Outcome(value=ctx.backend.snapshot_export(a.name))


@step("snapshot_get_node", args=SnapNode, requires=(C.SNAPSHOT,), op="read")
def snapshot_get_node(ctx, a: SnapNode) -> Outcome:
    return Outcome(value=ctx.backend.snapshot_get_node(a.name, a.id))


@step("snapshot_get_out", args=SnapOut, requires=(C.SNAPSHOT,), op="query")
def snapshot_get_out(ctx, a: SnapOut) -> Outcome:
    return Outcome(value=ctx.backend.snapshot_get_out(a.name, a.src, a.rel))


@step("snapshot_get_in", args=SnapIn, requires=(C.SNAPSHOT,), op="query")
def snapshot_get_in(ctx, a: SnapIn) -> Outcome:
    return Outcome(value=ctx.backend.snapshot_get_in(a.name, a.dst, a.rel))
