"""Failure modes of §4.8 and bad input: clear named errors, nothing stored is lost."""
from __future__ import annotations

import zlib

import lmdb
import pytest

from reference.clock import LogicalClock
from reference.errors import InvalidKey, StoreError
from reference.graph import GraphStore
from reference.graph.errors import InvalidPayload, InvalidRelation, KeyCollision, ReadOnly, StoreClosed, UnsupportedFormat
from reference.keys import hash64

A, B = "file:a.py", "file:b.py"


def framed(key: bytes, body: bytes) -> bytes:
    """The documented value frame, computed here independently: version | crc32(key, version, body) | body."""
    return b"\x01" + zlib.crc32(body, zlib.crc32(b"\x01", zlib.crc32(key))).to_bytes(4, "little") + body


def raw_put(path, key: bytes, value: bytes) -> None:
    env = lmdb.open(str(path), subdir=True)
    with env.begin(write=True) as txn:
        txn.put(key, value)
    env.close()


def test_unknown_relations_are_hard_errors(env):
    g = env.store
    g.put_edge(A, "calls", B)
    with pytest.raises(InvalidRelation, match="unknown relation 'likes'"):
        g.put_edge(A, "likes", B)
    with pytest.raises(InvalidRelation):
        g.get_out(A, rel="likes")
    with pytest.raises(InvalidRelation):
        g.delete_edge(A, "likes", B)
    for bad in ("Likes", "1x", "", "a-b", "x" * 65, None):
        with pytest.raises(InvalidRelation):
            g.register_relation(bad)
    assert g.register_relation("likes") == 11 and g.register_relation("likes") == 11
    assert g.register_relation("owns") == 12
    g.put_edge(A, "likes", B)
    assert [e.rel for e in g.get_out(A)] == ["calls", "likes"]
    assert g.revision() == 2


def test_relation_table_is_shared_between_open_stores(env):
    other = GraphStore.open(env.path, clock=LogicalClock(100.0), sync=False)
    reader = GraphStore.open(env.path, clock=LogicalClock(100.0), sync=False)
    try:
        assert reader.get_out(A) == []  # loads its relation table now, before "owns" exists
        other.register_relation("owns")
        env.store.put_edge(A, "owns", B)  # the first store learns the new relation from LMDB
        assert [e.rel for e in other.get_out(A)] == ["owns"]
        assert [(e.rel, e.dst) for e in reader.get_out(A)] == [("owns", B)]  # an id it had not seen
        assert [e.src for e in reader.get_in(B, rel="owns")] == [A]
    finally:
        other.close()
        reader.close()


def test_id_collision_is_a_hard_error(env):
    g = env.store
    g.put_node(B, "file", None)
    env.store.close()
    # Plant another key under A's 64-bit id, as a real collision would leave it.
    k = b"k:" + hash64(A).to_bytes(8, "big")
    raw_put(env.path, k, framed(k, b"file:impostor.py"))
    g = env.reopen()
    with pytest.raises(KeyCollision, match="file:impostor.py"):
        g.put_node(A, "file", None)
    with pytest.raises(KeyCollision):
        g.put_edge(B, "calls", A)
    with pytest.raises(KeyCollision):
        g.get_node(A)
    with pytest.raises(KeyCollision):
        g.get_out(A)
    assert g.revision() == 1 and g.get_node(B).type == "file"


@pytest.mark.parametrize("key", ["a.py", "file:/abs.py", "sym:a.py#f:function:9:1", "mem:XYZ", "nope:x", 42])
def test_bad_keys_are_refused(env, key):
    with pytest.raises((InvalidKey, TypeError)):
        env.store.put_node(key, "file", None)
    with pytest.raises((InvalidKey, TypeError)):
        env.store.put_edge(A, "calls", key)
    assert env.store.revision() == 0 and env.store.get_out(A) == []


@pytest.mark.parametrize("payload", [{1: "x"}, {"a": {2, 3}}, (1, 2), float("nan"), [float("inf")], b"raw",
                                     {"f": object()}])
def test_non_json_payloads_are_refused(env, payload):
    with pytest.raises(InvalidPayload):
        env.store.put_node(A, "file", payload)
    with pytest.raises(InvalidPayload):
        env.store.put_kv("repo", "decision", "x", payload)
    assert env.store.revision() == 0


def test_bad_arguments(env):
    g = env.store
    for kw in ({"type": ""}, {"type": None}, {"scope": 3}, {"run_id": 1}):
        args = {"id": A, "type": "file", "payload": None} | kw
        with pytest.raises(TypeError):
            g.put_node(**args)
    with pytest.raises(TypeError):
        g.put_node(A, "file", None, ts="now")
    with pytest.raises(InvalidKey):
        g.put_kv("repo", "", "x", 1)
    with pytest.raises(InvalidKey):
        g.put_kv("re\0po", "decision", "x", 1)
    with pytest.raises(InvalidKey, match="limit"):
        g.put_kv("repo", "decision", "k" * 600, 1)
    assert g.revision() == 0


def test_second_handle_cannot_write_inside_the_first_ones_batch(env):
    other = GraphStore.open(env.path, clock=LogicalClock(100.0), sync=False)
    try:
        with env.store.batch():
            env.store.put_node(A, "file", None)
            with pytest.raises(StoreError, match="batch open in this thread"):
                other.put_node(B, "file", None)
        assert other.get_node(A).type == "file" and other.get_node(B) is None
    finally:
        other.close()


def test_open_needs_a_clock(tmp_path):
    with pytest.raises(TypeError, match="clock"):
        GraphStore.open(tmp_path / "g", clock=None)


def test_unknown_store_format_is_refused(env):
    env.store.close()
    raw_put(env.path, b"m:format", framed(b"m:format", (2).to_bytes(4, "little")))
    with pytest.raises(UnsupportedFormat, match="format 2"):
        env.reopen()


def test_readonly_and_closed(env, tmp_path):
    env.store.put_node(A, "file", None)
    ro = GraphStore.open(env.path, clock=LogicalClock(), readonly=True)
    try:
        assert ro.get_node(A).type == "file"
        with pytest.raises(ReadOnly):
            ro.put_node(B, "file", None)
        env.store.put_node(B, "file", None)  # the writable handle still writes
        assert ro.get_node(B).type == "file"
    finally:
        ro.close()
    with pytest.raises(StoreError):
        GraphStore.open(tmp_path / "missing", clock=LogicalClock(), readonly=True)
    env.store.close()
    with pytest.raises(StoreClosed):
        env.store.get_node(A)
    with pytest.raises(StoreClosed):
        env.store.put_node(A, "file", None)
