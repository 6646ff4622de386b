"""The values the graph store returns: small frozen records with `to_dict()`.

`Node`, `Edge` and `KVEntry` are one version of an item; `EdgeRef` is one live
edge as adjacency reads return it (no payload: the hot path stores pointers
only); `Change` is one entry of the revision log that `diff_since` returns.
This module has no LMDB dependency (the snapshot reader uses it).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, NamedTuple


class EdgeRef(NamedTuple):
    """A live edge `src -rel-> dst`; `rev` is the revision that created it (its `edge_rev`)."""

    src: str
    rel: str
    dst: str
    rev: int

    def to_dict(self) -> dict[str, Any]:
        return {"src": self.src, "rel": self.rel, "dst": self.dst, "rev": self.rev}


@dataclass(frozen=True)
class Node:
    """One version of a node. `rev`/`updated_ts` are this version's; `superseded_by` is the
    source of the newest live `supersedes` edge into this node, or None."""

    id: str
    type: str
    payload: Any
    scope: str | None
    created_ts: float
    updated_ts: float
    rev: int
    created_rev: int
    run_id: str | None
    task_id: str | None
    superseded_by: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def superseded(self) -> bool:
        return self.superseded_by is not None


@dataclass(frozen=True)
class Edge:
    """One version of an edge with its payload; `created_*` belong to its current live span."""

    src: str
    rel: str
    dst: str
    payload: Any
    created_ts: float
    updated_ts: float
    rev: int
    created_rev: int
    run_id: str | None
    task_id: str | None
    deleted: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


EDGE_BODY_FIELDS = ("payload", "created_ts", "updated_ts", "rev", "created_rev", "run_id", "task_id", "deleted")


@dataclass(frozen=True)
class KVEntry:
    """One version of a policy entry (decision, constraint, procedure...) under scope/namespace/key."""

    scope: str
    namespace: str
    key: str
    payload: Any
    ts: float
    rev: int
    run_id: str | None
    task_id: str | None
    deleted: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


KV_BODY_FIELDS = ("payload", "ts", "rev", "run_id", "task_id", "deleted")

OPS = ("put_node", "put_edge", "delete_edge", "supersede", "put_kv", "delete_kv")


@dataclass(frozen=True)
class Change:
    """One write in the revision log. Which subject fields are set depends on `op`:
    nodes set `key`; edges (and supersede) set `src`, `rel`, `dst`; KV sets `scope`,
    `namespace`, `kv_key`. `overwrite` is True when the write replaced a live item."""

    rev: int
    ts: float
    op: str
    overwrite: bool
    run_id: str | None
    task_id: str | None
    key: str | None = None
    src: str | None = None
    rel: str | None = None
    dst: str | None = None
    scope: str | None = None
    namespace: str | None = None
    kv_key: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
