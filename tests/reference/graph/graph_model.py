"""An independent plain-Python model of the graph store, for tests only.

It records every write as an op with its revision and timestamp, and answers
any read at any past revision by replaying the ops up to it. It shares no code
with `reference.graph` beyond the meaning of the API (seed 003 + README).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

SUPERSEDES = "supersedes"
BUILTIN = ("defines", "references", "calls", "imports", "tests", "implements", "constrains", "decided_for",
           "derived_from", "supersedes")


class ModelError(Exception):
    """The model predicts that the store rejects this op; `kind` names the store's error class."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


@dataclass
class State:
    nodes: dict[str, dict] = field(default_factory=dict)
    edges: dict[tuple[str, str, str], dict] = field(default_factory=dict)  # live only
    kv: dict[tuple[str, str, str], dict] = field(default_factory=dict)  # live only


class GraphModel:
    def __init__(self) -> None:
        self.ops: list[dict] = []
        self.relations: list[str] = list(BUILTIN)
        self._cache: dict[int, State] = {}

    # -- time ---------------------------------------------------------------------
    @property
    def head(self) -> int:
        return len(self.ops)

    @property
    def last_ts(self) -> float:
        return self.ops[-1]["ts"] if self.ops else float("-inf")

    def ts_of(self, rev: int) -> float:
        return self.ops[rev - 1]["ts"]

    def rev_at_ts(self, x: float) -> int:
        rev = 0
        for op in self.ops:
            if op["ts"] <= x:
                rev = op["rev"]
        return rev

    # -- replay -------------------------------------------------------------------
    def state(self, rev: int | None = None) -> State:
        rev = self.head if rev is None else rev
        if rev in self._cache:
            return self._cache[rev]
        st = State()
        for op in self.ops[:rev]:
            self._apply(st, op)
        self._cache[rev] = st
        return st

    @staticmethod
    def _superseder(st: State, key: str) -> str | None:
        live = [(e["created_rev"], s) for (s, r, d), e in st.edges.items() if r == SUPERSEDES and d == key]
        return max(live)[1] if live else None

    def _refresh(self, st: State, key: str, op: dict) -> None:
        node = st.nodes.get(key)
        if node is None:
            return
        now = self._superseder(st, key)
        if now != node["superseded_by"]:
            st.nodes[key] = dict(node, superseded_by=now, rev=op["rev"], updated_ts=op["ts"])

    def _apply(self, st: State, op: dict) -> None:
        kind, rev, ts = op["op"], op["rev"], op["ts"]
        if kind == "put_node":
            old = st.nodes.get(op["key"])
            st.nodes[op["key"]] = {
                "id": op["key"], "type": op["type"], "payload": copy.deepcopy(op["payload"]), "scope": op["scope"],
                "created_ts": old["created_ts"] if old else ts, "updated_ts": ts, "rev": rev,
                "created_rev": old["created_rev"] if old else rev, "run_id": op["run_id"], "task_id": op["task_id"],
                "superseded_by": self._superseder(st, op["key"]),
            }
        elif kind in ("put_edge", "supersede"):
            k = (op["src"], op["rel"], op["dst"])
            old = st.edges.get(k)
            st.edges[k] = {"payload": copy.deepcopy(op["payload"]), "created_ts": old["created_ts"] if old else ts,
                           "updated_ts": ts, "rev": rev, "created_rev": old["created_rev"] if old else rev,
                           "run_id": op["run_id"], "task_id": op["task_id"]}
            if op["rel"] == SUPERSEDES:
                self._refresh(st, op["dst"], op)
        elif kind == "delete_edge":
            del st.edges[(op["src"], op["rel"], op["dst"])]
            if op["rel"] == SUPERSEDES:
                self._refresh(st, op["dst"], op)
        elif kind == "put_kv":
            st.kv[(op["scope"], op["namespace"], op["kv_key"])] = {
                "payload": copy.deepcopy(op["payload"]), "ts": ts, "rev": rev, "run_id": op["run_id"],
                "task_id": op["task_id"]}
        elif kind == "delete_kv":
            del st.kv[(op["scope"], op["namespace"], op["kv_key"])]

    # -- writes (raise ModelError where the store must refuse) ----------------------
    def _ts(self, ts: float | None, now: float) -> float:
        if ts is None:
            return max(now, self.last_ts)
        if ts < self.last_ts:
            raise ModelError("TimeWentBackwards")
        return float(ts)

    def _record(self, op: dict, ts: float | None, now: float) -> int:
        op["ts"] = self._ts(ts, now)
        op["rev"] = self.head + 1
        op.setdefault("run_id", None)
        op.setdefault("task_id", None)
        self.ops.append(op)
        self._cache.pop(op["rev"], None)
        return op["rev"]

    def register_relation(self, name: str) -> int:
        if name not in self.relations:
            self.relations.append(name)
        return self.relations.index(name) + 1

    def put_node(self, key: str, type: str, payload: Any, scope: str | None = None, ts: float | None = None,
                 run_id: str | None = None, task_id: str | None = None, *, now: float) -> int:
        overwrite = key in self.state().nodes
        return self._record({"op": "put_node", "key": key, "type": type, "payload": copy.deepcopy(payload),
                             "scope": scope, "run_id": run_id, "task_id": task_id, "overwrite": overwrite}, ts, now)

    def put_edge(self, src: str, rel: str, dst: str, payload: Any = None, ts: float | None = None,
                 run_id: str | None = None, task_id: str | None = None, *, now: float, op: str = "put_edge") -> int:
        if rel not in self.relations:
            raise ModelError("InvalidRelation")
        if op == "supersede":
            if src == dst:
                raise ModelError("ValueError")
            if src not in self.state().nodes or dst not in self.state().nodes:
                raise ModelError("NotFound")
        overwrite = (src, rel, dst) in self.state().edges
        return self._record({"op": op, "src": src, "rel": rel, "dst": dst, "payload": copy.deepcopy(payload),
                             "run_id": run_id, "task_id": task_id, "overwrite": overwrite}, ts, now)

    def supersede(self, new: str, old: str, payload: Any = None, ts: float | None = None, *, now: float) -> int:
        return self.put_edge(new, SUPERSEDES, old, payload, ts, now=now, op="supersede")

    def delete_edge(self, src: str, rel: str, dst: str, ts: float | None = None, *, now: float) -> int:
        if rel not in self.relations:
            raise ModelError("InvalidRelation")
        if (src, rel, dst) not in self.state().edges:
            raise ModelError("NotFound")
        return self._record({"op": "delete_edge", "src": src, "rel": rel, "dst": dst, "overwrite": True}, ts, now)

    def put_kv(self, scope: str, namespace: str, key: str, payload: Any, ts: float | None = None, *,
               now: float) -> int:
        overwrite = (scope, namespace, key) in self.state().kv
        return self._record({"op": "put_kv", "scope": scope, "namespace": namespace, "kv_key": key,
                             "payload": copy.deepcopy(payload), "overwrite": overwrite}, ts, now)

    def delete_kv(self, scope: str, namespace: str, key: str, ts: float | None = None, *, now: float) -> int:
        if (scope, namespace, key) not in self.state().kv:
            raise ModelError("NotFound")
        return self._record({"op": "delete_kv", "scope": scope, "namespace": namespace, "kv_key": key,
                             "overwrite": True}, ts, now)

    def truncate(self, head: int) -> None:
        """Forget ops after `head` (a rolled-back batch)."""
        del self.ops[head:]
        self._cache = {r: s for r, s in self._cache.items() if r <= head}

    # -- reads -------------------------------------------------------------------------
    def node(self, key: str, rev: int | None = None) -> dict | None:
        node = self.state(rev).nodes.get(key)
        return copy.deepcopy(node)

    def edge(self, src: str, rel: str, dst: str, rev: int | None = None) -> dict | None:
        e = self.state(rev).edges.get((src, rel, dst))
        return None if e is None else dict(copy.deepcopy(e), src=src, rel=rel, dst=dst, deleted=False)

    def out(self, key: str, rel: str | None = None, rev: int | None = None) -> list[dict]:
        refs = [(e["created_rev"], {"src": s, "rel": r, "dst": d, "rev": e["created_rev"]})
                for (s, r, d), e in self.state(rev).edges.items() if s == key and rel in (None, r)]
        return [ref for _, ref in sorted(refs, key=lambda p: p[0])]

    def in_(self, key: str, rel: str | None = None, rev: int | None = None) -> list[dict]:
        refs = [(e["created_rev"], {"src": s, "rel": r, "dst": d, "rev": e["created_rev"]})
                for (s, r, d), e in self.state(rev).edges.items() if d == key and rel in (None, r)]
        return [ref for _, ref in sorted(refs, key=lambda p: p[0])]

    def kv(self, scope: str, namespace: str, key: str, rev: int | None = None) -> dict | None:
        e = self.state(rev).kv.get((scope, namespace, key))
        return None if e is None else dict(copy.deepcopy(e), scope=scope, namespace=namespace, key=key,
                                           deleted=False)

    def list_kv(self, scope: str, namespace: str, rev: int | None = None) -> list[dict]:
        keys = sorted((k for s, n, k in self.state(rev).kv if (s, n) == (scope, namespace)), key=str.encode)
        return [self.kv(scope, namespace, k, rev) for k in keys]

    def changes(self, since: int, until: int | None = None) -> list[dict]:
        out = []
        for op in self.ops[since:until]:
            c = {"rev": op["rev"], "ts": op["ts"], "op": op["op"], "overwrite": op["overwrite"],
                 "run_id": op["run_id"], "task_id": op["task_id"], "key": None, "src": None, "rel": None,
                 "dst": None, "scope": None, "namespace": None, "kv_key": None}
            subject = {"put_node": ("key",), "put_kv": ("scope", "namespace", "kv_key"),
                       "delete_kv": ("scope", "namespace", "kv_key")}.get(op["op"], ("src", "rel", "dst"))
            for f in subject:
                c[f] = op[f]
            out.append(c)
        return out
