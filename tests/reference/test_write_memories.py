"""The batch write path stores what the same writes one by one store, atomically."""
from __future__ import annotations

import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from reference.clock import LogicalClock
from reference.memories.input import InvalidMemory, check_metadata
from reference.memories.args import InvalidArgument
from reference.store import MemoryStore

RECORDS = [dict(text=f"fix the auth token race number {i}", task="task:debug", context=["context:auth"],
                tags=["p1"], metadata={"branch": "main" if i % 2 else "dev"}) for i in range(25)]


def _rows(store):
    return [(e.id, e.text, e.task, e.context, e.tags, e.metadata, e.created_at)
            for e in store.list_memories(limit=1000)]


def test_batch_equals_single_writes(tmp_path):
    one = MemoryStore.open(tmp_path / "one", clock=LogicalClock(1_700_000_000.0))
    for r in RECORDS:
        one.write_memory(**r)
    many = MemoryStore.open(tmp_path / "many", clock=LogicalClock(1_700_000_000.0))
    seen = []
    many.add_write_listener(lambda e: seen.append(e.id))
    entries = many.write_memories(RECORDS)
    assert _rows(one) == _rows(many) and len(entries) == 25
    assert seen == [e.id for e in entries]  # layers hear every write, in order
    for e in entries:
        assert many.memories.get(e.id) == e
    hits_one = one.search_memories("auth token race number 7", task="task:debug", where_metadata={"branch": ["main"]})
    hits_many = many.search_memories("auth token race number 7", task="task:debug", where_metadata={"branch": ["main"]})
    assert [(h.id, h.score) for h in hits_one] == [(h.id, h.score) for h in hits_many] and hits_many
    one.close()
    many.close()


def test_one_bad_record_stores_nothing(tmp_path):
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_700_000_000.0))
    with pytest.raises(InvalidMemory):
        store.write_memories([RECORDS[0], dict(text="")])
    with pytest.raises(InvalidArgument, match="record 1: unknown field"):
        store.write_memories([RECORDS[0], dict(text="x", colour="red")])
    assert store.list_memories() == [] and len(store.vectors) == 0
    store.close()


def test_batch_telemetry_reads_like_single_writes(tmp_path):
    from reference.telemetry import ListSink

    sinks = {}
    for name in ("one", "many"):
        sinks[name] = ListSink()
        store = MemoryStore.open(tmp_path / name, clock=LogicalClock(1_700_000_000.0), telemetry=sinks[name])
        store.set_context(scope="repo:x", run_id="r", task_id="t")
        if name == "one":
            for r in RECORDS[:5]:
                store.write_memory(**r)
        else:
            store.write_memories(RECORDS[:5], times=None)
        store.close()

    def writes(sink):
        return [(e.op, e.memory_id, e.timestamp, e.scope, e.run_id, e.task_id, e.extra)
                for e in sink.events if e.op == "write"]
    assert writes(sinks["many"]) == writes(sinks["one"]) and len(writes(sinks["one"])) == 5


def test_batch_moves_salts_as_single_writes_do(tmp_path):
    """Ids taken by an earlier row or by an earlier record of the same batch: the batch falls back to
    one record at a time and gets the ids (salts), rows and blob bytes the single writes get."""
    from reference.keys import hash64
    from reference.memories.insert import derive_memory_id

    def narrow(key):   # 64 hashes: 20 memories collide several times
        return hash64(key) % 64 + 1

    recs = [dict(text=f"note {i % 7}") for i in range(20)]
    one = MemoryStore.open(tmp_path / "one", clock=LogicalClock(1_700_000_000.0), hash_fn=narrow)
    singles = [one.write_memory(**r) for r in recs]
    many = MemoryStore.open(tmp_path / "many", clock=LogicalClock(1_700_000_000.0), hash_fn=narrow)
    batch = many.write_memories(recs[:3]) + many.write_memories(recs[3:])
    assert [e.id for e in batch] == [e.id for e in singles]
    assert any(e.id != derive_memory_id(e.created_at, i + 1, e.text, 0) for i, e in enumerate(singles))
    assert _rows(one) == _rows(many)
    one.close()
    many.close()
    assert (tmp_path / "one" / "blob.dat").read_bytes() == (tmp_path / "many" / "blob.dat").read_bytes()


_JSONISH = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8),
                                  st.floats(allow_nan=False, allow_infinity=False)),
                        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                        max_leaves=8)


def _holds_nul(v) -> bool:
    if isinstance(v, str):
        return "\x00" in v
    if isinstance(v, dict):
        return any(_holds_nul(k) or _holds_nul(x) for k, x in v.items())
    return isinstance(v, list) and any(map(_holds_nul, v))


@settings(max_examples=150, deadline=None)
@given(meta=st.dictionaries(st.text(max_size=6), _JSONISH, max_size=6))
@example(meta={"\x00": None})   # found by hypothesis when NUL began to be refused
@example(meta={"k": [1, {"x": "a\x00"}]})
def test_metadata_is_its_json_round_trip_flat_or_nested(meta):
    """`check_metadata`'s shortcut for flat dicts (str, int, bool, None values) returns what the JSON round
    trip returns: the same keys in the same order, the same values of the same types; a U+0000 in any key or
    string is refused."""
    if _holds_nul(meta):
        with pytest.raises(InvalidMemory, match="U\\+0000"):
            check_metadata(meta)
        return
    got = check_metadata(meta)
    want = json.loads(json.dumps(meta, sort_keys=True, allow_nan=False))
    assert got == want and list(got) == list(want)
    assert [type(v) for v in got.values()] == [type(v) for v in want.values()]


def test_with_blob_is_replace_of_the_blob_fields():
    """The write path's constructor shortcut gives `dataclasses.replace`'s entry, field for field."""
    from dataclasses import fields, replace

    from reference.memories.insert import with_blob
    from reference.memories.record import MemoryEntry
    e = MemoryEntry("mem:0011aabb", 17, "task:debug", ("i",), ("context:auth",), (5,), "t", ("x",), {"k": 1},
                    1.5, 2.5, None, None)
    got, want = with_blob(e, 40, 9), replace(e, blob_offset=40, blob_length=9)
    assert [getattr(got, f.name) for f in fields(MemoryEntry)] == [getattr(want, f.name) for f in fields(MemoryEntry)]
