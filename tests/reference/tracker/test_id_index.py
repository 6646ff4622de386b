"""The in-memory key hash -> memory id map answers as `MemoriesTable.ids_of` does, through writes,
batches, updates, deletes, another connection's commits, a rollback and an open transaction."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference.clock import LogicalClock
from reference.store import MemoryStore

ops = st.lists(st.one_of(
    st.tuples(st.just("write"), st.integers(0, 5)),
    st.tuples(st.just("batch"), st.integers(1, 4)),
    st.tuples(st.just("delete"), st.integers(0, 1000)),
    st.tuples(st.just("update"), st.integers(0, 1000)),
    st.tuples(st.just("check"), st.just(0)),
), min_size=1, max_size=25)


class Undo(Exception):
    """Rolls a transaction back."""


def _same(store: MemoryStore, extra: list[int]) -> dict[int, str]:
    """Every hash ever written (deleted ones too) plus unknown ones: the map agrees with SQL."""
    conn = store.tracker.conn()
    hashes = extra + [12345, 2**64 - 1]
    fast = store.memories.id_index.ids_of(conn, hashes)
    assert fast == store.tracker.memories.ids_of(conn, hashes)
    return fast


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops)
def test_map_agrees_with_sql_through_changes(tmp_path_factory, steps):
    clock = LogicalClock(1_700_000_000.0)
    store = MemoryStore.open(tmp_path_factory.mktemp("ids"), clock=clock)
    live: list[str] = []
    hashes: list[int] = []
    _same(store, hashes)  # built on an empty store, then kept in step by notes
    for op, arg in steps:
        clock.advance(1)
        if op == "write":
            e = store.write_memory(f"note {arg}")
            live.append(e.id)
            hashes.append(e.key_hash)
        elif op == "batch":
            es = store.write_memories([{"text": f"batch {j}"} for j in range(arg)])
            live += [e.id for e in es]
            hashes += [e.key_hash for e in es]
        elif op == "delete" and live:
            store.delete_memory(live.pop(arg % len(live)))
        elif op == "update" and live:
            store.update_metadata(live[arg % len(live)], {"n": arg})
        else:
            _same(store, hashes)
    got = _same(store, hashes)
    assert sorted(got.values()) == sorted(live)
    store.close()


def test_other_connections_commit_rollback_and_open_transaction(tmp_path):
    clock = LogicalClock(1_700_000_000.0)
    a = MemoryStore.open(tmp_path, clock=clock)
    first = [a.write_memory(f"a{i}") for i in range(5)]
    hashes = [e.key_hash for e in first]
    assert len(_same(a, hashes)) == 5
    b = MemoryStore.open(tmp_path, clock=clock)  # another writer: a learns of it from the memories revision
    new = b.write_memory("from b")
    b.delete_memory(first[0].id)
    got = _same(a, hashes + [new.key_hash])
    assert new.key_hash in got and first[0].key_hash not in got
    assert not a.memories.id_index._built  # the query that saw the commit asked SQL
    assert _same(a, hashes + [new.key_hash]) == got
    assert a.memories.id_index._built  # the next one rebuilt the map
    a.memories.id_index.reset()  # what the writer does on a rollback
    assert len(_same(a, hashes + [new.key_hash])) == 5
    with pytest.raises(Undo), a.tracker.tx() as conn:  # uncommitted changes are not noted yet: SQL answers
        a.tracker.memories.delete(conn, first[1].key_hash)
        assert first[1].key_hash not in a.memories.id_index.ids_of(conn, hashes)
        raise Undo
    assert first[1].key_hash in _same(a, hashes)
    b.close()
    a.close()
