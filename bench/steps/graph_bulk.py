"""Graph batch writes and traversal (the large tier's `graph-scale`), named like the graph steps.

`graph_put_nodes` / `graph_put_edges` / `graph_delete_edges` write many records in one step, all at the
step's clock time (a read at `at` >= that time sees the whole batch); a backend without a bulk path
answers them one write at a time (`GraphOps` defaults). `graph_traverse` returns every node within
1..`depth` hops of `src` along live edges (`direction` "out" or "in", optional `rel`, `at`), sorted.
"""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bench.backends.capabilities import Capability as C
from bench.steps.graph import _pit
from bench.steps.registry import Outcome, step

MAX_BATCH = 100_000   # records per step: a scenario line stays a few MB
MAX_DEPTH = 4


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PutNodes(_Args):
    nodes: list[tuple[str, str, Any]] = Field(max_length=MAX_BATCH)


class Edges(_Args):
    edges: list[tuple[str, str, str]] = Field(max_length=MAX_BATCH)


class Traverse(_Args):
    src: str
    depth: int = Field(ge=1, le=MAX_DEPTH)
    rel: str | None = None
    direction: Literal["out", "in"] = "out"
    at: float | None = None


@step("graph_put_nodes", args=PutNodes, requires=(C.GRAPH,), op="write")
def graph_put_nodes(ctx, a: PutNodes) -> Outcome:
    ctx.backend.graph_put_nodes(a.nodes)
    return Outcome(value=len(a.nodes))


@step("graph_put_edges", args=Edges, requires=(C.GRAPH,), op="write")
def graph_put_edges(ctx, a: Edges) -> Outcome:
    ctx.backend.graph_put_edges(a.edges)
    return Outcome(value=len(a.edges))


@step("graph_delete_edges", args=Edges, requires=(C.GRAPH,), op="delete")
def graph_delete_edges(ctx, a: Edges) -> Outcome:
    ctx.backend.graph_delete_edges(a.edges)
    return Outcome(value=len(a.edges))


@step("graph_traverse", args=Traverse, requires=(C.GRAPH,), op="query")
def graph_traverse(ctx, a: Traverse) -> Outcome:
    _pit(ctx, a.at)
    return Outcome(value=ctx.backend.graph_traverse(a.src, a.depth, a.rel, a.direction, a.at))
