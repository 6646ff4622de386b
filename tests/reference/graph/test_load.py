"""Load (§7.5): tens of thousands of entities, checked against a plain-dict reckoning of the same edges."""
from __future__ import annotations

import random

from reference.clock import LogicalClock
from reference.graph import At, GraphStore, SnapshotReader

N_NODES, N_EDGES, N_DELETES = 10_000, 20_000, 2_000
RELS = ("defines", "references", "calls", "imports", "tests")


def test_tens_of_thousands_of_entities(tmp_path):
    rng = random.Random(11)
    keys = [f"file:src/m{i}.py" if i % 2 else f"sym:src/m{i}.py#f{i}:function:1:9" for i in range(N_NODES)]
    out: dict[str, dict[tuple[str, str], int]] = {k: {} for k in keys}  # src -> {(rel, dst): created rev}
    g = GraphStore.open(tmp_path / "g", clock=LogicalClock(), sync=False)
    with g.batch():
        for k in keys:
            g.put_node(k, "file" if k.startswith("file:") else "symbol", {"k": k})
    rev = N_NODES
    with g.batch():
        for _ in range(N_EDGES):
            src, dst, rel = rng.choice(keys), rng.choice(keys), rng.choice(RELS)
            g.put_edge(src, rel, dst)
            rev += 1
            out[src].setdefault((rel, dst), rev)
    mid_rev, mid = rev, {k: dict(v) for k, v in out.items() if v}
    live = sorted((s, r, d) for s, v in out.items() for (r, d) in v)
    with g.batch():
        for s, r, d in rng.sample(live, N_DELETES):
            g.delete_edge(s, r, d)
            rev += 1
            del out[s][(r, d)]
    assert g.revision() == rev

    def expected_out(table, k):
        return [(r, d, v) for (r, d), v in sorted(table.get(k, {}).items(), key=lambda kv: kv[1])]

    incoming: dict[str, list] = {}
    for s, t in out.items():
        for (r, d), v in t.items():
            incoming.setdefault(d, []).append((s, r, v))

    sample = rng.sample(keys, 200)
    for k in sample:
        assert [(e.rel, e.dst, e.rev) for e in g.get_out(k)] == expected_out(out, k)
        assert [(e.rel, e.dst, e.rev) for e in g.get_out(k, at=At.rev(mid_rev))] == expected_out(mid, k)
    for k in sample:
        assert [(e.src, e.rel, e.rev) for e in g.get_in(k)] == sorted(incoming.get(k, []), key=lambda e: e[2])
    info = g.export_snapshot(tmp_path / "s.snap")
    assert (info["nodes"], info["edges"]) == (N_NODES, sum(len(v) for v in out.values()))
    with SnapshotReader.open(tmp_path / "s.snap") as snap:
        for k in sample:
            assert [(e.rel, e.dst, e.rev) for e in snap.get_out(k)] == expected_out(out, k)
            assert snap.get_node(k).payload == {"k": k}
    g.close()
