"""Every backend operation an adapter can map: its arguments, what it returns, and the capability needing it.

An operation is a method of the backend interface (`bench/backends/interface.py` and the mixins in
`bench/backends/ops/`). Its template placeholders are the method's parameter names (`{top_k}`, `{at}`, ...;
`write_memory` also has `{uid}`, get/delete_memory `{id}`), and its *kind* says how the answer becomes the typed value the method
returns:

| kind | reads | the method returns |
|---|---|---|
| `id` | `id` | the new item's id, as a string |
| `hits` | `hits`, `scores` (optional) | `Hit`s in the server's order, cut at `top_k` |
| `record` / `records` | `record`, `missing` / `records` | a memory record (or None) / a list of them |
| `deleted` | `deleted` (optional) | True unless the server says nothing was removed |
| `value` | `result` (default `@`) | the JSON value read, checked against the method's type |
| `none` | nothing | None (a write whose answer is not needed) |
| `storage` | nothing | the data folder's size in bytes, measured after the call (e.g. a checkpoint) |
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Callable

from reference.ontology import check_context, check_insights, check_task

from bench.backends.capabilities import Capability as C
from bench.backends.interface import Backend
from bench.backends.ops.graph import GraphOps, PolicyOps, SnapshotOps
from bench.backends.ops.knowledge import KnowledgeOps
from bench.backends.ops.lane import LaneOps
from bench.backends.ops.patterns import PatternOps
from bench.backends.ops.project import ProjectOps

# placeholders beyond the method's parameters: `{uid}` (a harness-made name), `{id}` (= `{memory_id}`) and
# `{labels}` (the taxonomy as one list of tag strings, for servers whose only filter is tags; `labels()`)
EXTRA = {"write_memory": ["uid", "labels"], "get_memory": ["id"], "delete_memory": ["id"],
         "search_memories": ["labels"], "list_memories": ["labels"]}


def labels(values: dict[str, Any]) -> list[str] | None:
    """`{labels}`: the task slug, the context and insight slugs (each already `kind:name`, e.g.
    `context:auth`) and every tag as `tag:<tag>`, in that order; None when there are none (so that
    `"{labels?}"` leaves the argument out). A server that filters by "all of these tags" then honours
    the harness's task/context/insight/tag filters exactly. The slugs are checked against the taxonomy
    (`reference.ontology`) as the in-process backends check them: an unknown one is a ValueError naming
    the allowed ones, and nothing is sent."""
    for name in ("context", "insights", "tags"):
        if isinstance(values.get(name), str):
            raise ValueError(f"{name} must be a list, not the string {values[name]!r}")
    task = check_task(values.get("task"))
    out = [task] if task else []
    out += check_context(values.get("context") or []) + check_insights(values.get("insights") or [])
    out += [f"tag:{t}" for t in values.get("tags") or []]
    return out or None

# which read fields each kind takes; the first of a kind's tuple is required unless it is `result`
READS: dict[str, tuple[str, ...]] = {
    "id": ("id",), "hits": ("hits", "scores"), "record": ("record", "missing", "not_found"),
    "records": ("records",), "deleted": ("deleted", "not_found"), "value": ("result", "not_found"),
    "none": (), "storage": (),
}
REQUIRED = {"id": "id", "hits": "hits", "record": "record", "records": "records"}

# JSON type a `value` operation must give; "?" = may also be null (then `not_found` is allowed too)
_TYPES = {"object": dict, "list": list, "str": str, "any": object}


@dataclass(frozen=True)
class Op:
    """One mappable operation."""

    name: str
    method: Callable[..., Any]      # the interface method (its signature gives the placeholders)
    kind: str
    returns: str = "any"            # for kind `value`: object, list, str or any, with "?" when null is allowed

    @property
    def params(self) -> tuple[str, ...]:
        names = [p for p in inspect.signature(self.method).parameters if p != "self"]
        return tuple(names + EXTRA.get(self.name, []))

    def check_type(self, value: Any) -> str | None:
        """None when `value` has the operation's JSON type, else what was expected."""
        base, optional = self.returns.rstrip("?"), self.returns.endswith("?")
        if value is None:
            return None if optional or base == "any" else f"a {base}, got null"
        return None if isinstance(value, _TYPES[base]) else f"a {base}, got {type(value).__name__}"


def _ops(owner: type, kinds: dict[str, str]) -> list[Op]:
    out = []
    for name, kind in kinds.items():
        kind, _, returns = kind.partition(":")
        out.append(Op(name, getattr(owner, name), kind, returns or "any"))
    return out


_ALL = [
    *_ops(Backend, {"set_context": "none", "write_memory": "id", "get_memory": "record", "list_memories": "records",
                    "search_memories": "hits", "keyword_search": "hits", "delete_memory": "deleted",
                    "index_directory": "value:object", "index_file": "value:object", "search_all": "hits",
                    "code_search": "hits", "symbol_search": "hits"}),
    *_ops(GraphOps, {"graph_put_node": "none", "graph_get_node": "value:object?", "graph_put_edge": "none",
                     "graph_delete_edge": "none", "graph_supersede": "none", "graph_get_out": "value:list",
                     "graph_get_in": "value:list"}),
    *_ops(PolicyOps, {"policy_put": "none", "policy_get": "value:any", "policy_list": "value:object"}),
    *_ops(SnapshotOps, {"snapshot_export": "value:object", "snapshot_get_node": "value:object?",
                        "snapshot_get_out": "value:list", "snapshot_get_in": "value:list"}),
    *_ops(PatternOps, {"pattern_load": "value:object", "pattern_list": "value:list", "pattern_scan": "value:list",
                       "pattern_scan_memories": "value:object"}),
    *_ops(KnowledgeOps, {"oracle_search": "value:list", "oracle_entities": "value:list",
                         "oracle_relationships": "value:list", "oracle_timeline": "value:list", "oracle_learn": "id"}),
    *_ops(LaneOps, {"lane_store": "id", "lane_find": "value:object", "lane_feedback": "value:object",
                    "lane_inject": "value:object"}),
    *_ops(ProjectOps, {"project_switch_branch": "value:str", "project_record_commit": "value:object",
                       "project_placeholder": "value:object", "project_search": "hits",
                       "project_locate_files": "hits", "project_index_snapshot": "value:object",
                       "project_gc": "value:object", "project_get": "value:object?", "project_memories": "value:list",
                       "project_stats": "value:object", "project_storage_bytes": "storage"}),
]
OPERATIONS: dict[str, Op] = {op.name: op for op in _ALL}


def _group(prefix: str, *extra: str) -> tuple[str, ...]:
    return tuple(n for n in OPERATIONS if n.startswith(prefix)) + extra


# The operations each capability needs mapped (a declared capability without them is refused at load).
# `redaction` is a property of the server's writes, checked by the contract suite: it needs no operation.
NEEDS: dict[C, tuple[str, ...]] = {
    C.MEMORY_WRITE: ("write_memory",), C.MEMORY_GET: ("get_memory",), C.MEMORY_LIST: ("list_memories",),
    C.MEMORY_SEARCH: ("search_memories",), C.MEMORY_FILTERS: ("search_memories",),
    C.METADATA_FILTERS: ("search_memories",), C.KEYWORD_SEARCH: ("keyword_search",),
    C.MEMORY_DELETE: ("delete_memory",),
    C.CODE_INDEX: ("index_directory", "index_file"), C.CODE_SEARCH: ("search_all", "code_search", "symbol_search"),
    C.GRAPH: _group("graph_"), C.POINT_IN_TIME: ("graph_get_node", "graph_get_out", "graph_get_in", "policy_get"),
    C.POLICY_KV: _group("policy_"), C.SNAPSHOT: _group("snapshot_"), C.PATTERNS: _group("pattern_"),
    C.REDACTION: (), C.KNOWLEDGE: _group("oracle_"), C.MEMORY_LANE: _group("lane_"),
    C.PROJECT_MEMORY: _group("project_"),
    # working paths ride on the memory search: an adapter declaring them passes `{paths}` in its search's args
    C.WORKING_PATHS: ("search_memories",),
}
