"""Hypothesis stateful test: the store against the plain-Python model, at every revision.

Random sequences of writes (nodes, edges, deletes, supersede, policy KV,
batches, rolled-back batches, clock moves, explicit timestamps, compaction,
reopening) run on both; reads at random past revisions, by revision and by
timestamp, must agree exactly, and so must a snapshot exported at any revision.
"""
from __future__ import annotations

import shutil
import tempfile

import hypothesis.strategies as st
import pytest
from graph_model import GraphModel, ModelError
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from reference.clock import LogicalClock
from reference.graph import At, CompactionPolicy, GraphStore, SnapshotReader
from reference.graph import errors

KEYS = ("file:a.py", "file:b.py", "sym:a.py#f:function:1:2", "mem:0000000a", "mem:0000000b", "chunk:a.py:0")
RELS = ("defines", "calls", "supersedes", "imports")
SCOPES = ("repo", "task:x")
NAMESPACES = ("decision", "constraint")
KV_KEYS = ("a", "b", "é")
payloads = st.one_of(
    st.none(),
    st.integers(-3, 3),
    st.text(max_size=3),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.dictionaries(st.sampled_from("xy"), st.one_of(st.integers(0, 2), st.lists(st.booleans(), max_size=2)),
                    max_size=2),
)
keys = st.sampled_from(KEYS)
rels = st.sampled_from(RELS)


class BatchAbort(Exception):
    pass


def expect(model_call, store_call):
    """Run an op on the model; the store must succeed with the same revision or fail the same way."""
    try:
        rev = model_call()
    except ModelError as exc:
        with pytest.raises(getattr(errors, exc.kind, None) or ValueError):
            store_call()
        return None
    assert store_call() == rev
    return rev


def compare(store: GraphStore, model: GraphModel, rev: int | None, at: At | None) -> None:
    for key in KEYS:
        node = store.get_node(key, at=at)
        assert (node.to_dict() if node else None) == model.node(key, rev), (key, at)
        for rel in (None, "defines", "supersedes"):
            assert [r.to_dict() for r in store.get_out(key, rel=rel, at=at)] == model.out(key, rel, rev), (key, rel, at)
            assert [r.to_dict() for r in store.get_in(key, rel=rel, at=at)] == model.in_(key, rel, rev), (key, rel, at)
    for src in KEYS[:3]:
        for dst in KEYS[:3]:
            edge = store.get_edge(src, "calls", dst, at=at)
            assert (edge.to_dict() if edge else None) == model.edge(src, "calls", dst, rev)
    for scope in SCOPES:
        for ns in NAMESPACES:
            assert [e.to_dict() for e in store.list_kv(scope, ns, at=at)] == model.list_kv(scope, ns, rev)
            entry = store.get_kv_latest(scope, ns, "a", at=at)
            assert (entry.to_dict() if entry else None) == model.kv(scope, ns, "a", rev)


class GraphMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = tempfile.mkdtemp(prefix="graph-state-")
        self.clock = LogicalClock(1000.0)
        self.model = GraphModel()
        self.policy = CompactionPolicy(tombstone_ratio=0.2, max_bytes=64)
        self.store = GraphStore.open(self.dir, clock=self.clock, sync=False, compaction=self.policy)

    def teardown(self) -> None:
        self.store.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    @property
    def now(self) -> float:
        return self.clock.now()

    @initialize(name=st.sampled_from(["likes", "owns"]))
    def register(self, name: str) -> None:
        assert self.store.register_relation(name) == self.model.register_relation(name) == 11

    # -- writes ---------------------------------------------------------------------
    @rule(key=keys, type=st.sampled_from(["file", "symbol", "memory"]), payload=payloads,
          scope=st.sampled_from([None, "repo"]), run=st.sampled_from([None, "run-1"]))
    def put_node(self, key, type, payload, scope, run):
        expect(lambda: self.model.put_node(key, type, payload, scope, run_id=run, now=self.now),
               lambda: self.store.put_node(key, type, payload, scope=scope, run_id=run))

    @rule(src=keys, rel=st.sampled_from(RELS + ("likes", "owns", "unknown")), dst=keys, payload=payloads)
    def put_edge(self, src, rel, dst, payload):
        expect(lambda: self.model.put_edge(src, rel, dst, payload, task_id="t", now=self.now),
               lambda: self.store.put_edge(src, rel, dst, payload, task_id="t"))

    @rule(src=keys, rel=rels, dst=keys)
    def delete_edge(self, src, rel, dst):
        expect(lambda: self.model.delete_edge(src, rel, dst, now=self.now),
               lambda: self.store.delete_edge(src, rel, dst))

    @precondition(lambda self: self.model.state().edges)
    @rule(data=st.data())
    def delete_live_edge(self, data):
        src, rel, dst = data.draw(st.sampled_from(sorted(self.model.state().edges)))
        expect(lambda: self.model.delete_edge(src, rel, dst, now=self.now),
               lambda: self.store.delete_edge(src, rel, dst))

    @precondition(lambda self: self.model.state().kv)
    @rule(data=st.data())
    def delete_live_kv(self, data):
        scope, ns, key = data.draw(st.sampled_from(sorted(self.model.state().kv)))
        expect(lambda: self.model.delete_kv(scope, ns, key, now=self.now),
               lambda: self.store.delete_kv(scope, ns, key))

    @rule(new=keys, old=keys, payload=payloads)
    def supersede(self, new, old, payload):
        expect(lambda: self.model.supersede(new, old, payload, now=self.now),
               lambda: self.store.supersede(new, old, payload))

    @rule(scope=st.sampled_from(SCOPES), ns=st.sampled_from(NAMESPACES), key=st.sampled_from(KV_KEYS),
          payload=payloads, delete=st.booleans())
    def kv(self, scope, ns, key, payload, delete):
        if delete:
            expect(lambda: self.model.delete_kv(scope, ns, key, now=self.now),
                   lambda: self.store.delete_kv(scope, ns, key))
        else:
            expect(lambda: self.model.put_kv(scope, ns, key, payload, now=self.now),
                   lambda: self.store.put_kv(scope, ns, key, payload))

    @rule(dt=st.sampled_from([0.0, 0.25, 1.0, 7.5]))
    def advance(self, dt):
        self.clock.advance(dt)

    @rule(key=keys, back=st.sampled_from([-1.0, 0.0, 2.0]))
    def explicit_ts(self, key, back):
        ts = (self.model.last_ts if self.model.head else self.now) + back
        expect(lambda: self.model.put_node(key, "file", None, ts=ts, now=self.now),
               lambda: self.store.put_node(key, "file", None, ts=ts))

    @rule(edges=st.lists(st.tuples(keys, rels, keys, st.booleans()), min_size=1, max_size=6), abort=st.booleans())
    def batch(self, edges, abort):
        head = self.model.head
        try:
            with self.store.batch():
                for src, rel, dst, delete in edges:
                    if delete:
                        expect(lambda: self.model.delete_edge(src, rel, dst, now=self.now),
                               lambda: self.store.delete_edge(src, rel, dst))
                    else:
                        expect(lambda: self.model.put_edge(src, rel, dst, None, now=self.now),
                               lambda: self.store.put_edge(src, rel, dst))
                    if head == 0 or not abort:
                        # reads inside a batch see the state before it
                        assert [r.to_dict() for r in self.store.get_out(src)] == self.model.out(src, None, head)
                if abort:
                    raise BatchAbort()
        except BatchAbort:
            self.model.truncate(head)
        assert self.store.revision() == self.model.head

    @rule()
    def compact(self):
        self.store.compact()

    @rule()
    def reopen(self):
        self.store.close()
        self.store = GraphStore.open(self.dir, clock=self.clock, sync=False, compaction=self.policy)

    # -- reads ----------------------------------------------------------------------
    @invariant()
    def latest_agrees(self):
        assert self.store.revision() == self.model.head
        compare(self.store, self.model, None, None)

    @precondition(lambda self: self.model.head > 0)
    @rule()
    def every_past_revision(self):
        for rev in range(self.model.head + 1):
            compare(self.store, self.model, rev, At.rev(rev))

    @precondition(lambda self: self.model.head > 0)
    @rule(data=st.data(), offset=st.sampled_from([-0.5, 0.0, 0.1]))
    def past_by_timestamp(self, data, offset):
        rev = data.draw(st.integers(1, self.model.head))
        x = self.model.ts_of(rev) + offset
        expected = self.model.rev_at_ts(x)
        assert self.store.resolve(At.ts(x)) == expected
        compare(self.store, self.model, expected, At.ts(x))

    @precondition(lambda self: self.model.head > 0)
    @rule(data=st.data())
    def diff(self, data):
        since = data.draw(st.integers(0, self.model.head))
        assert [c.to_dict() for c in self.store.diff_since(At.rev(since))] == self.model.changes(since)
        x = self.model.ts_of(since) if since else self.model.ts_of(1) - 1
        assert ([c.to_dict() for c in self.store.diff_since(At.ts(x))]
                == self.model.changes(self.model.rev_at_ts(x)))

    @rule(data=st.data())
    def snapshot(self, data):
        rev = data.draw(st.integers(0, self.model.head))
        path = f"{self.dir}/snap.bin"
        summary = self.store.export_snapshot(path, at=At.rev(rev))
        assert summary["revision"] == rev
        with SnapshotReader.open(path) as snap:
            for key in KEYS:
                node = snap.get_node(key)
                assert (node.to_dict() if node else None) == self.model.node(key, rev)
                assert [r.to_dict() for r in snap.get_out(key)] == self.model.out(key, None, rev)
                assert [r.to_dict() for r in snap.get_in(key, "supersedes")] == self.model.in_(key, "supersedes", rev)
            for scope in SCOPES:
                for ns in NAMESPACES:
                    assert [e.to_dict() for e in snap.list_kv(scope, ns)] == self.model.list_kv(scope, ns, rev)
                    for k in KV_KEYS:
                        e = snap.get_kv(scope, ns, k)
                        assert (e.to_dict() if e else None) == self.model.kv(scope, ns, k, rev)


GraphMachine.TestCase.settings = settings(max_examples=40, stateful_step_count=30, deadline=None,
                                          suppress_health_check=[HealthCheck.too_slow])
TestGraphMachine = GraphMachine.TestCase
