"""Write census: at the end of a replay, read back every write the backend acknowledged.

Each write a step acknowledged (it returned without raising) is recorded with its step's
line and a key the backend can be asked for again: a memory id (`get_memory`), a graph
node id (`graph_get_node`), an edge (`graph_get_out`), a policy key (`policy_get`), a
pattern set (`pattern_list`) or a project memory (`project_get`). A later step that
deletes it (`graph_delete_edge`, `project_gc` of its branch) takes it out of the census.
Batch steps (`graph_put_nodes`, `graph_put_edges`, `graph_delete_edges`) count each record
they carry; edges are read back one `graph_get_out` per (source, relation), not one per edge.
A write with no key, or whose reader the backend does not declare, is `unverifiable`:
counted visibly, never passed. See bench/replay/README.md.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from bench.backends.capabilities import Capability as C
from bench.replay.results import CheckResult
from bench.steps.registry import Outcome

Reader = Callable[[Any, tuple], bool]  # (backend, key) -> can it be read back?


def _memory(b: Any, key: tuple) -> bool:
    return b.get_memory(key[0]) is not None


def _node(b: Any, key: tuple) -> bool:
    return b.graph_get_node(key[0]) is not None


def _edge(b: Any, key: tuple) -> bool:
    src, rel, dst = key
    return [rel, dst] in [list(e) for e in b.graph_get_out(src, rel)]


def _policy(b: Any, key: tuple) -> bool:
    return b.policy_get(*key) is not None


def _pattern(b: Any, key: tuple) -> bool:
    return key[0] in {s["id"] for s in b.pattern_list()}


def _project(b: Any, key: tuple) -> bool:
    return b.project_get(key[0]) is not None


# kind -> (capability the reader needs, reader)
READERS: dict[str, tuple[C, Reader]] = {
    "memory": (C.MEMORY_GET, _memory), "node": (C.GRAPH, _node), "edge": (C.GRAPH, _edge),
    "policy": (C.POLICY_KV, _policy), "pattern_set": (C.PATTERNS, _pattern), "project": (C.PROJECT_MEMORY, _project),
}
_KIND = {"memory_write": "memory", "memory_write_structured": "memory", "graph_put_node": "node",
         "graph_put_edge": "edge", "policy_put": "policy", "pattern_load": "pattern_set",
         "commit": "project", "project_placeholder": "project"}
_BATCH = {"graph_put_nodes": "node", "graph_put_edges": "edge"}


def _key(name: str, args: Any, outcome: Outcome) -> tuple | None:
    kind = _KIND.get(name)
    if kind == "edge":
        return (args.src, args.rel, args.dst)
    if kind == "policy":
        return (args.scope, args.namespace, args.key)
    if kind == "pattern_set":
        return (args.pattern_set_id,)
    return (outcome.created_id,) if kind and outcome.created_id is not None else None


@dataclass
class Write:
    line: int
    step: str
    kind: str | None
    key: tuple | None


@dataclass
class Census:
    """The acknowledged writes of one replay, and what reading them back found."""

    writes: dict[tuple, Write] = field(default_factory=dict)   # (kind, key) -> latest write
    keyless: list[Write] = field(default_factory=list)
    lost: list[Write] = field(default_factory=list)
    unverifiable: int = 0
    verified: int = 0

    def record(self, ctx: Any, line: int, name: str, op: str, kind: str, args: Any, outcome: Outcome) -> None:
        """Note what a step that returned without raising wrote or deleted."""
        if name == "graph_delete_edge":
            self.writes.pop(("edge", (args.src, args.rel, args.dst)), None)
        elif name == "graph_delete_edges":
            for src, rel, dst in args.edges:
                self.writes.pop(("edge", (src, rel, dst)), None)
        elif name in _BATCH and op == "write":
            self._record_batch(line, name, args)
            return
        elif name == "project_gc":
            self._gc(ctx, set(args.live_branches))
        if op != "write" or (kind == "directive" and outcome.created_id is None):
            return
        key = _key(name, args, outcome)
        w = Write(line, name, _KIND.get(name), key)
        if key is None:
            self.keyless.append(w)
        else:
            self.writes[(w.kind, key)] = w

    def _record_batch(self, line: int, name: str, args: Any) -> None:
        kind = _BATCH[name]
        shared = Write(line, name, kind, None)  # one record per step; the key lives in the dict's key
        for rec in args.nodes if kind == "node" else args.edges:
            key = (rec[0],) if kind == "node" else (rec[0], rec[1], rec[2])
            self.writes[(kind, key)] = shared

    def _gc(self, ctx: Any, live: set[str]) -> None:
        model = ctx.state.get("project")
        if model is None:
            return
        live |= {model.default} if model.default else set()
        for k in [k for k in self.writes if k[0] == "project" and model.labels.get(k[1][0]) not in live]:
            del self.writes[k]

    def verify(self, backend: Any) -> None:
        """Read every recorded write back; a reader that raises counts the write as lost."""
        self.unverifiable = len(self.keyless)
        out_edges: dict[tuple[str, str], set[str] | None] = {}
        for (kind, key), w in self.writes.items():
            cap, reader = READERS[kind]
            if not backend.supports(cap):
                self.unverifiable += 1
                continue
            try:
                ok = _edge_cached(backend, key, out_edges) if kind == "edge" else reader(backend, key)
            except Exception:  # noqa: BLE001 - a write that cannot be read is lost, whatever the reason
                ok = False
            if ok:
                self.verified += 1
            else:
                self.lost.append(w if w.key is not None else replace(w, key=key))

    @property
    def acknowledged(self) -> int:
        return len(self.writes) + len(self.keyless)

    def counts(self) -> dict[str, int]:
        return {"acknowledged": self.acknowledged, "verified": self.verified, "lost": len(self.lost),
                "unverifiable": self.unverifiable}

    def checks(self) -> list[CheckResult]:
        """One failed check per lost write (named with its line), else one passed check if any was verified."""
        if self.lost:
            return [CheckResult("census", False, f"line {w.line} {w.step}: acknowledged write "
                                f"{_short(w.key)} cannot be read back") for w in self.lost]
        return [CheckResult("census", True, f"{self.verified} writes read back")] if self.verified else []


def _edge_cached(b: Any, key: tuple, cache: dict) -> bool:
    """Like `_edge`, reading each (source, relation) list once for all its edges."""
    src, rel, dst = key
    if (src, rel) not in cache:
        cache[(src, rel)] = {str(d) for r, d in (tuple(e) for e in b.graph_get_out(src, rel)) if r == rel}
    return dst in cache[(src, rel)]


def _short(key: tuple | None) -> str:
    text = "/".join(str(k) for k in key or ())
    return text if len(text) <= 60 else text[:57] + "..."
