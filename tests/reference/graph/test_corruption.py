"""Corruption detection (§4.8, §7.6): a flipped byte in any LMDB value fails fast, never answers wrongly.

For every key in the environment, one byte of its value is flipped; a fresh
handle then runs every read at every revision. Each answer must either equal
the independent model's or raise `CorruptData`, and at least one read must
raise for every damaged value.
"""
from __future__ import annotations

import random

import lmdb
import pytest
from graph_model import GraphModel

from reference.clock import LogicalClock
from reference.graph import At, CompactionPolicy, GraphStore
from reference.graph.errors import CorruptData

KEYS = ("file:a.py", "file:b.py", "mem:00000001", "mem:00000002")
A, B, M1, M2 = KEYS
OPS = [
    ("put_node", A, "file", {"v": 1}), ("put_node", M1, "memory", "old"), ("put_node", M2, "memory", "new"),
    ("put_edge", A, "calls", B, {"w": 1}), ("put_edge", A, "imports", M1, None), ("advance",),
    ("put_edge", A, "calls", B, {"w": 2}), ("supersede", M2, M1, None), ("put_kv", "repo", "decision", "x", 1),
    ("delete_edge", A, "imports", M1), ("advance",), ("put_kv", "repo", "decision", "x", 2),
    ("put_node", A, "file", {"v": 2}), ("delete_kv", "repo", "decision", "x"), ("put_kv", "repo", "decision", "y", 3),
    ("put_edge", B, "calls", A, None), ("delete_edge", B, "calls", A), ("put_edge", B, "calls", A, None),
]
EDGES = [(A, "calls", B), (A, "imports", M1), (M2, "supersedes", M1), (B, "calls", A)]


def run_reads(store: GraphStore, model: GraphModel) -> tuple[int, int]:
    """(answers checked, CorruptData raised) over every read at every revision."""
    checked = raised = 0

    def check(got, expected):
        nonlocal checked, raised
        try:
            value = got()
        except CorruptData:
            raised += 1
            return
        checked += 1
        assert value == expected

    dicts = lambda xs: [x.to_dict() for x in xs]  # noqa: E731
    one = lambda x: x.to_dict() if x else None  # noqa: E731
    check(store.revision, model.head)
    check(lambda: [c.to_dict() for c in store.diff_since(At.rev(0))], model.changes(0))
    for rev in range(model.head + 1):
        at = At.rev(rev)
        for key in KEYS:
            check(lambda: one(store.get_node(key, at=at)), model.node(key, rev))
            check(lambda: dicts(store.get_out(key, at=at)), model.out(key, None, rev))
            check(lambda: dicts(store.get_in(key, at=at)), model.in_(key, None, rev))
        for src, rel, dst in EDGES:
            check(lambda: one(store.get_edge(src, rel, dst, at=at)), model.edge(src, rel, dst, rev))
        check(lambda: dicts(store.list_kv("repo", "decision", at=at)), model.list_kv("repo", "decision", rev))
        for k in ("x", "y"):
            check(lambda: one(store.get_kv_latest("repo", "decision", k, at=at)), model.kv("repo", "decision", k, rev))
    for key in KEYS:
        check(lambda: one(store.get_node(key)), model.node(key))
        check(lambda: dicts(store.get_out(key)), model.out(key))
        check(lambda: dicts(store.get_in(key)), model.in_(key))
    return checked, raised


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    path = tmp_path_factory.mktemp("corrupt") / "g"
    clock, model = LogicalClock(50.0), GraphModel()
    g = GraphStore.open(path, clock=clock, sync=False, compaction=CompactionPolicy(tombstone_ratio=0.3))
    for op in OPS:
        if op[0] == "advance":
            clock.advance(5)
            continue
        getattr(g, op[0])(*op[1:])
        getattr(model, op[0])(*op[1:], now=clock.now())
    assert g.stats()["out_cold_entries"] > 0  # the cold part is exercised too
    g.close()
    return path, model


def test_intact_store_answers_everything(built):
    path, model = built
    with GraphStore.open(path, clock=LogicalClock(), sync=False) as g:
        checked, raised = run_reads(g, model)
    assert raised == 0 and checked > 300


def test_a_flipped_byte_in_any_value_is_detected(built):
    path, model = built
    env = lmdb.open(str(path), subdir=True)
    with env.begin() as txn:
        items = list(txn.cursor())
    env.close()
    prefixes = {k.split(b":")[0] for k, _ in items}
    assert prefixes >= {b"m", b"ri", b"rn", b"k", b"n", b"nh", b"e", b"eh", b"out", b"in", b"oc", b"ic", b"kv",
                        b"hist", b"r"}
    rng = random.Random(3)
    for key, value in items:
        pos = rng.randrange(len(value))
        bad = value[:pos] + bytes([value[pos] ^ (1 << rng.randrange(8))]) + value[pos + 1:]
        env = lmdb.open(str(path), subdir=True)
        with env.begin(write=True) as txn:
            txn.put(key, bad)
        env.close()
        try:
            try:
                g = GraphStore.open(path, clock=LogicalClock(), sync=False)
            except CorruptData:
                continue  # refused at open: the relation table or format marker
            with g:
                checked, raised = run_reads(g, model)
            assert raised > 0, f"damage to {key!r} at byte {pos} went unnoticed"
        finally:
            env = lmdb.open(str(path), subdir=True)
            with env.begin(write=True) as txn:
                txn.put(key, value)
            env.close()
