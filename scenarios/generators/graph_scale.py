"""Generate `graph-scale`: the large tier's graph, 50k nodes / 500k live edges written in batches (issue 15).

Everything comes from `scenarios/spec/graph_scale.toml` and the generator's own
model: per node the history of its versions, per edge the times it was added
and deleted. Writes come in batch steps (`graph_put_nodes`, `graph_put_edges`,
`graph_delete_edges`), each at its own clock time (the clock moves
`batch_seconds` first), so a read at T sees exactly the batches written at or
before T. After every batch come reads checked against the model: `graph_get_out`
/ `graph_get_in` / `graph_get_node` now or at an earlier batch's time,
`graph_traverse` (every node within `depth` hops, now or in the past), and at
each checkpoint a snapshot export read back node by node. Deleted edges are
sometimes written again later: history must keep both lives.

    python scenarios/generators/graph_scale.py --out DIR            # the spec's sizes
    python scenarios/generators/graph_scale.py --out DIR --nodes 500 --edges 5000 --batch 500 --name graph-small
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "scenarios" / "spec" / "graph_scale.toml"
INF = float("inf")


def load_spec(path: Path = SPEC, **overrides) -> dict:
    """The spec, with `overrides` (e.g. nodes=, edges= for a small test graph) applied."""
    spec = tomllib.loads(path.read_text())
    spec.update({k: v for k, v in overrides.items() if v is not None})
    spec["deletes"] = round(spec["edges"] * spec["delete_share"])
    spec["re_adds"] = round(spec["deletes"] * spec["re_add_share"])
    spec["overwrites"] = round(spec["nodes"] * spec["overwrite_share"])
    return spec


def node_key(i: int, packages: int) -> str:
    """Odd indexes are files, even ones symbols of that file, in package `i % packages`."""
    pkg = f"src/pkg{i % packages}/m{i}.py"
    return f"file:{pkg}" if i % 2 else f"sym:{pkg}#f{i}:function:{i % 50 + 1}:{i % 50 + 9}"


class Model:
    """Node versions and edge lives; answers every read at any time T (a write at ts <= T is seen)."""

    def __init__(self, keys: list[str]) -> None:
        self.keys = keys
        self.versions: dict[int, list[tuple[float, dict]]] = {}
        self.out: dict[int, list[list]] = {}   # src -> [rel, src, dst, t_add, t_del] records
        self.inn: dict[int, list[list]] = {}   # dst -> the same records
        self.live: dict[tuple[int, str, int], list] = {}
        self.dead: list[tuple[int, str, int]] = []

    def put_node(self, i: int, t: float, payload: dict) -> None:
        self.versions.setdefault(i, []).append((t, payload))

    def add_edge(self, e: tuple[int, str, int], t: float) -> None:
        rec = [e[1], e[0], e[2], t, INF]
        self.live[e] = rec
        self.out.setdefault(e[0], []).append(rec)
        self.inn.setdefault(e[2], []).append(rec)

    def delete_edge(self, e: tuple[int, str, int], t: float) -> None:
        self.live.pop(e)[4] = t
        self.dead.append(e)

    def node(self, i: int, t: float) -> dict | None:
        seen = [p for ts, p in self.versions.get(i, ()) if ts <= t]
        if not seen:
            return None
        return {"type": "file" if i % 2 else "symbol", "payload": seen[-1], "superseded_by": None}

    def out_at(self, i: int, t: float, rel: str | None = None) -> list[list[str]]:
        return sorted([r[0], self.keys[r[2]]] for r in self.out.get(i, ())
                      if r[3] <= t < r[4] and rel in (None, r[0]))

    def in_at(self, i: int, t: float, rel: str | None = None) -> list[list[str]]:
        return sorted([self.keys[r[1]], r[0]] for r in self.inn.get(i, ())
                      if r[3] <= t < r[4] and rel in (None, r[0]))

    def reach(self, i: int, t: float, depth: int, rel: str | None, direction: str) -> list[str]:
        """Every node within 1..depth hops of `i` along live edges at t (not `i` itself), sorted."""
        lists, far = (self.out, 2) if direction == "out" else (self.inn, 1)
        seen, frontier = {i}, [i]
        for _ in range(depth):
            nxt = []
            for n in frontier:
                for r in lists.get(n, ()):
                    if r[3] <= t < r[4] and rel in (None, r[0]) and r[far] not in seen:
                        seen.add(r[far])
                        nxt.append(r[far])
            frontier = nxt
        seen.discard(i)
        return sorted(self.keys[n] for n in seen)


def plan(spec: dict) -> list[tuple[str, int]]:
    """The batch schedule: ("nodes" | "edges" | "delete" | "readd" | "overwrite", size), in order."""
    b = spec["batch"]
    adds = spec["edges"] + spec["deletes"] - spec["re_adds"]
    edge_batches = [min(b, adds - s) for s in range(0, adds, b)]
    node_batches = [min(b, spec["nodes"] - s) for s in range(0, spec["nodes"], b)]
    n_e = len(edge_batches)
    out: list[tuple[str, int]] = []
    extra: dict[int, list[tuple[str, int]]] = {}
    for k, size in enumerate(node_batches):  # nodes arrive spread over the first half of the edges
        extra.setdefault(k * max(1, n_e // (2 * len(node_batches))), []).append(("nodes", size))
    dels = [min(b, spec["deletes"] - s) for s in range(0, spec["deletes"], b)]
    for k, size in enumerate(dels):
        extra.setdefault(n_e * (k + 2) // (len(dels) + 3), []).append(("delete", size))
    if spec["re_adds"]:
        extra.setdefault(n_e * (len(dels) + 2) // (len(dels) + 3) + 1, []).append(("readd", spec["re_adds"]))
    if spec["overwrites"]:
        extra.setdefault(n_e - 1, []).append(("overwrite", spec["overwrites"]))
    for j, size in enumerate(edge_batches):
        out += extra.get(j, []) + [("edges", size)]
    out += [x for j, xs in sorted(extra.items()) if j >= n_e for x in xs]
    return out


def generate(spec: dict) -> Iterator[dict]:
    """The scenario's lines: header, then steps."""
    rnd = random.Random(spec["seed"])
    P, rels, start = spec["packages"], spec["relations"], float(spec["start_time"])
    keys = [node_key(i, P) for i in range(spec["nodes"])]
    m = Model(keys)
    yield {"scenario": spec["name"], "format": 1,
           "description": f"{spec['nodes']:,} nodes and {spec['edges']:,} live edges written in batches of "
                          f"{spec['batch']:,}, with deletes, re-adds and overwrites; point-in-time reads, "
                          "traversals and snapshot checkpoints checked against the generator's model.",
           "start_time": start, "oracle": None, "latency_budget_ms": 5,
           "source": f"generated by scenarios/generators/graph_scale.py from spec/graph_scale.toml (seed {spec['seed']})",
           "targets": [{"metric": "check_rate", "op": ">=", "value": 1.0,
                        "source": "seed 003 §9: point-in-time reads and snapshots answer exactly"}]}
    yield {"directive": "session", "run_id": "graph-scale", "task_id": "scale", "scope": "repo:scale"}
    t, created, times = start, 0, [start - 1.0]
    schedule = plan(spec)
    checkpoints = {max(1, round(c * len(schedule))) for c in spec["checkpoints"]}

    def pick_edge() -> tuple[int, str, int]:
        while True:
            n = max(created, 2)
            src = rnd.randrange(n)
            if rnd.random() < spec["local_share"] and n > P:
                dst = src % P + P * rnd.randrange((n - 1 - src % P) // P + 1)
            else:
                dst = rnd.randrange(n)
            e = (src, rnd.choice(rels), dst)
            if src != dst and e not in m.live:
                return e

    for number, (kind, size) in enumerate(schedule, start=1):
        t += spec["batch_seconds"]
        times.append(t)
        yield {"directive": "set_clock", "time": t}
        if kind in ("nodes", "overwrite"):
            if kind == "nodes":
                ids, created = range(created, created + size), created + size
            else:
                ids = sorted(rnd.sample(range(created), min(size, created)))
            rows = []
            for i in ids:
                payload = {"pkg": i % P, "v": number}
                m.put_node(i, t, payload)
                rows.append([keys[i], "file" if i % 2 else "symbol", payload])
            yield {"tool": "graph_put_nodes", "args": {"nodes": rows}}
        elif kind == "edges":
            batch = []
            for _ in range(size):
                e = pick_edge()
                m.add_edge(e, t)
                batch.append(e)
            yield {"tool": "graph_put_edges", "args": {"edges": [[keys[s], r, keys[d]] for s, r, d in batch]}}
        elif kind == "delete":
            doomed = rnd.sample(sorted(m.live), size)
            for e in doomed:
                m.delete_edge(e, t)
            yield {"tool": "graph_delete_edges", "args": {"edges": [[keys[s], r, keys[d]] for s, r, d in doomed]}}
        else:  # readd: edges deleted earlier (and still dead) are written again
            back = [e for e in dict.fromkeys(m.dead) if e not in m.live][:size]
            for e in back:
                m.add_edge(e, t)
            yield {"tool": "graph_put_edges", "args": {"edges": [[keys[s], r, keys[d]] for s, r, d in back]}}
        yield from _reads(spec, rnd, m, created, t, times)
        if number in checkpoints:
            yield from _snapshot(spec, rnd, m, created, t, f"gs{number}")


def _when(rnd: random.Random, t: float, times: list[float]) -> tuple[float, dict]:
    """Now (no `at`), or a past batch's time, or halfway between two batches."""
    if rnd.random() < 0.4:
        return t, {}
    at = rnd.choice(times) + rnd.choice([0.0, 0.0, 30.0])
    return at, {"at": at}


def _reads(spec: dict, rnd: random.Random, m: Model, created: int, t: float, times: list[float]) -> Iterator[dict]:
    keys, n = m.keys, max(created, 1)
    for _ in range(spec["reads_per_batch"]):
        i, kind = rnd.randrange(n), rnd.random()
        when, at = _when(rnd, t, times)
        if kind < 0.45:
            rel = rnd.choice([None, None, None, *spec["relations"]])
            yield {"tool": "graph_get_out", "args": {"src": keys[i], "rel": rel, **at},
                   "expect": {"equals": m.out_at(i, when, rel)}}
        elif kind < 0.8:
            yield {"tool": "graph_get_in", "args": {"dst": keys[i], **at}, "expect": {"equals": m.in_at(i, when)}}
        else:
            yield {"tool": "graph_get_node", "args": {"id": keys[i], **at}, "expect": {"equals": m.node(i, when)}}
    for _ in range(spec["traversals_per_batch"]):
        i, depth = rnd.randrange(n), rnd.randint(1, spec["max_depth"])
        direction, rel = rnd.choice(["out", "out", "in"]), rnd.choice([None, None, *spec["relations"]])
        when, at = _when(rnd, t, times)
        yield {"tool": "graph_traverse", "args": {"src": keys[i], "depth": depth, "rel": rel, "direction": direction,
                                                  **at},
               "expect": {"equals": m.reach(i, when, depth, rel, direction)}}


def _snapshot(spec: dict, rnd: random.Random, m: Model, created: int, t: float, name: str) -> Iterator[dict]:
    yield {"tool": "graph_export_snapshot", "args": {"name": name}}
    for i in rnd.sample(range(created), min(spec["snapshot_checks"], created)):
        k = m.keys[i]
        yield {"tool": "snapshot_get_node", "args": {"name": name, "id": k}, "expect": {"equals": m.node(i, t)}}
        yield {"tool": "snapshot_get_out", "args": {"name": name, "src": k}, "expect": {"equals": m.out_at(i, t)}}
        yield {"tool": "snapshot_get_in", "args": {"name": name, "dst": k}, "expect": {"equals": m.in_at(i, t)}}


def write(spec: dict, out_dir: Path) -> Path:
    """Write `<name>.jsonl` into `out_dir` (through a temporary file, so a partial file is never left)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{spec['name']}.jsonl"
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w") as fh:
        for line in generate(spec):
            fh.write(json.dumps(line, sort_keys=True, separators=(",", ":")) + "\n")
    tmp.replace(path)
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="folder to write <name>.jsonl into")
    ap.add_argument("--nodes", type=int)
    ap.add_argument("--edges", type=int)
    ap.add_argument("--batch", type=int)
    ap.add_argument("--name", help="scenario name (default: the spec's)")
    a = ap.parse_args(argv)
    spec = load_spec(nodes=a.nodes, edges=a.edges, batch=a.batch, name=a.name)
    path = write(spec, a.out)
    print(f"{path}: {path.stat().st_size / 1e6:.1f} MB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
