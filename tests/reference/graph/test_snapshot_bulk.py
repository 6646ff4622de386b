"""Snapshot export's bulk path (reference/graph/snapshot/bulk.py) answers exactly what the per-list reads answer."""
from __future__ import annotations

import random

import lmdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.clock import LogicalClock
from reference.graph import At, CompactionPolicy, GraphStore, SnapshotReader
from reference.graph import keyspace as ks
from reference.graph.adjacency import ENTRY
from reference.graph.codec import dumps, frame
from reference.graph.errors import CorruptAdjacency
from reference.graph.recordcodec import decode_node, encode_node
from reference.graph.snapshot.bulk import node_json
from reference.keys import hash64

pytestmark = pytest.mark.filterwarnings("ignore::reference.graph.errors.TombstoneWarning")
RELS = ("calls", "imports", "defines", "references")
texts = st.none() | st.text(max_size=12)
json_values = st.recursive(st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.text(max_size=8)
                           | st.floats(allow_nan=False, allow_infinity=False),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                                        max_size=3), max_leaves=8)


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=1, max_size=12), texts, texts, texts, texts, texts, json_values,
       st.floats(allow_nan=False, allow_infinity=False), st.floats(allow_nan=False, allow_infinity=False),
       st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_node_json_is_the_canonical_dump_of_the_decoded_record(nid, typ, scope, run, task, sup, payload, c_ts,
                                                               u_ts, rev, c_rev):
    record = {"id": nid, "type": typ, "payload": payload, "scope": scope, "created_ts": c_ts, "updated_ts": u_ts,
              "rev": rev, "created_rev": c_rev, "run_id": run, "task_id": task, "superseded_by": sup}
    body = encode_node(record)
    assert node_json(b"n:x", body) == dumps(decode_node(body))


def _random_graph(path, seed: int, policy: CompactionPolicy | None) -> tuple[GraphStore, list[str]]:
    """Nodes, edges, deletes and re-adds, supersedes and overwrites, spread over many revisions."""
    rnd = random.Random(seed)
    keys = [f"file:m{i}.py" for i in range(30)] + [f"mem:{i:08x}" for i in range(1, 11)]
    clock = LogicalClock(1000.0)
    g = GraphStore.open(path, clock=clock, sync=False, compaction=policy)
    live: set[tuple[str, str, str]] = set()
    for step in range(600):
        clock.advance(1)
        r = rnd.random()
        if r < 0.2:
            k = rnd.choice(keys)
            g.put_node(k, k.split(":")[0], {"step": step})
        elif r < 0.65 or not live:
            e = (rnd.choice(keys[:30]), rnd.choice(RELS), rnd.choice(keys))
            g.put_edge(*e, {"w": step})
            live.add(e)
        elif r < 0.95:
            e = rnd.choice(sorted(live))
            g.delete_edge(*e)
            live.discard(e)
        else:
            new, old = rnd.sample(keys[30:], 2)
            if g.get_node(new) and g.get_node(old) and not g.get_node(old).superseded_by:
                g.supersede(new, old)
    return g, keys


@pytest.mark.parametrize("policy", [None, CompactionPolicy(tombstone_ratio=0.1), CompactionPolicy(enabled=False)])
def test_every_read_of_a_snapshot_equals_the_store_at_its_revision(tmp_path, policy):
    g, keys = _random_graph(tmp_path / "g", 7, policy)
    head = g.revision()
    for rev in (1, head // 3, head // 2, head - 1, head):
        snap_path = tmp_path / f"s{rev}.snap"
        summary = g.export_snapshot(snap_path, at=At.rev(rev))
        with SnapshotReader.open(snap_path) as snap:
            edges = 0
            for k in keys:
                out = g.get_out(k, at=At.rev(rev))
                assert snap.get_out(k) == out
                assert snap.get_in(k) == g.get_in(k, at=At.rev(rev))
                assert snap.get_node(k) == g.get_node(k, at=At.rev(rev))
                edges += len(out)
            assert summary["edges"] == edges
    g.close()


def test_bulk_export_is_deterministic_across_compaction(tmp_path):
    g1, _ = _random_graph(tmp_path / "a", 3, CompactionPolicy(enabled=False))
    g2, _ = _random_graph(tmp_path / "b", 3, CompactionPolicy(tombstone_ratio=0.05))
    g1.export_snapshot(tmp_path / "a.snap")
    g2.export_snapshot(tmp_path / "b.snap")
    assert (tmp_path / "a.snap").read_bytes() == (tmp_path / "b.snap").read_bytes()
    g1.close()
    g2.close()


@pytest.mark.parametrize("forgery", ["duplicate pair", "revisions out of order", "reserved flag"])
def test_a_well_framed_but_impossible_list_fails_the_export(tmp_path, forgery):
    """A list whose checksum is right but whose entries make no sense raises instead of being exported."""
    g = GraphStore.open(tmp_path / "g", clock=LogicalClock(1000.0), sync=False)
    a, b, c = "file:a.py", "file:b.py", "file:c.py"
    for dst in (b, c):
        g.put_edge(a, "calls", dst)
    g.put_edge(b, "calls", c)
    g.close()
    env = lmdb.open(str(tmp_path / "g"), max_dbs=0, subdir=True, lock=False)
    key = ks.OUT + ks.u64(hash64(a))
    with env.begin(write=True) as txn:
        body = bytes(txn.get(key))[5:]
        head, entries = body[:9], body[9:]
        rows = list(ENTRY.iter_unpack(entries))
        rel = rows[0][0]
        if forgery == "duplicate pair":
            rows[1] = (rel, rows[0][1], rows[1][2], 0)
        elif forgery == "revisions out of order":
            rows[0], rows[1] = (rows[0][0], rows[0][1], rows[1][2], 0), (rows[1][0], rows[1][1], rows[0][2], 0)
        else:
            rows[1] = rows[1][:3] + (4,)
        txn.put(key, frame(key, head + b"".join(ENTRY.pack(*r) for r in rows)))
    env.close()
    g = GraphStore.open(tmp_path / "g", clock=LogicalClock(2000.0), sync=False)
    with pytest.raises(CorruptAdjacency):
        g.export_snapshot(tmp_path / "x.snap")
    g.close()
