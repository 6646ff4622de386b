"""`MemoryIds`: ids of stored memories kept across writes, dropped when they may have gone."""
from __future__ import annotations

import sqlite3

import pytest

from reference.knowledge import memory_ids
from reference.knowledge.memory_ids import MemoryIds
from reference.tracker.codec import to_db

H = [(1 << 63) + 5, 7, 11]   # one hash above 2**63: stored signed, read back unsigned


def connect(path):
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    return conn


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "t.db"
    conn = connect(path)
    conn.execute("CREATE TABLE memories (id TEXT PRIMARY KEY, key_hash INTEGER UNIQUE NOT NULL)")
    conn.executemany("INSERT INTO memories VALUES (?, ?)", [("m0", to_db(H[0])), ("m1", to_db(H[1]))])
    return path, conn


def selects(conn):
    seen = []
    conn.set_trace_callback(lambda sql: seen.append(sql) if sql.startswith("SELECT key_hash") else None)
    return seen


def test_ids_of_stored_memories_and_none_for_others(db):
    _, conn = db
    assert MemoryIds().lookup(conn, H, set()) == {H[0]: "m0", H[1]: "m1"}


def test_a_known_id_needs_no_query_until_a_delete_clears_the_map(db):
    _, conn = db
    ids, seen = MemoryIds(), selects(conn)
    ids.lookup(conn, H[:2], set())
    assert ids.lookup(conn, H[:2], set()) == {H[0]: "m0", H[1]: "m1"} and len(seen) == 1
    conn.execute("DELETE FROM memories WHERE id = 'm1'")
    ids.clear()   # what the layer's delete listener does
    assert ids.lookup(conn, H[:2], set()) == {H[0]: "m0"} and len(seen) == 2


def test_another_connections_commit_is_seen(db):
    path, conn = db
    ids = MemoryIds()
    assert ids.lookup(conn, H[:2], set()) == {H[0]: "m0", H[1]: "m1"}
    other = connect(path)
    other.execute("DELETE FROM memories WHERE id = 'm0'")   # no listener of ours runs
    assert ids.lookup(conn, H[:2], set()) == {H[1]: "m1"}
    other.close()


def test_rows_of_the_open_transaction_are_read_but_not_kept(db):
    _, conn = db
    ids = MemoryIds()
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO memories VALUES ('m2', ?)", (H[2],))
    assert ids.lookup(conn, [H[2]], {H[2]}) == {H[2]: "m2"}
    conn.execute("ROLLBACK")
    assert ids.lookup(conn, [H[2]], set()) == {}


def test_the_map_starts_again_when_full(db, monkeypatch):
    _, conn = db
    monkeypatch.setattr(memory_ids, "MAX_IDS", 1)
    ids, seen = MemoryIds(), selects(conn)
    ids.lookup(conn, [H[0]], set())
    ids.lookup(conn, [H[1]], set())     # over the bound: the map empties, then keeps m1
    assert ids.lookup(conn, [H[0], H[1]], set()) == {H[0]: "m0", H[1]: "m1"}
    # the third lookup read m0 again (dropped when the map emptied), not m1 (kept after it)
    assert len(seen) == 3 and seen[2].endswith(f"IN ({to_db(H[0])})")


def test_a_deleted_neighbour_is_never_linked_to(layer, store, clock):
    """A memory deleted between writes: the next similar write links only to what is stored."""
    a = store.write_memory("retry the upload three times in src/upload/client.py before failing")
    clock.advance(60)
    b = store.write_memory("retry the upload three times in src/upload/client.py before giving up")
    assert {r.target_id for r in layer.relationships(b.id)} == {a.id}
    store.delete_memory(a.id)
    assert layer._ids.lookup(store.tracker.conn(), [a.key_hash], set()) == {}   # the listener cleared it
    clock.advance(60)
    c = store.write_memory("retry the upload three times in src/upload/client.py before failing hard")
    targets = {r.target_id for r in layer.relationships(c.id) if r.source_id == c.id}
    assert targets == {b.id}
