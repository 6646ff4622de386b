"""Schema v7: the indexes no query reads are gone (fresh and migrated stores) and every lookup still uses an index."""
from __future__ import annotations

import sqlite3

from reference.clock import LogicalClock
from reference.knowledge import KnowledgeLayer
from reference.knowledge import relationship_table, temporal_table
from reference.store import MemoryStore
from reference.tracker import LATEST
from reference.tracker.lean_indexes import UNREAD_INDEXES, drop_unread_indexes
from reference.knowledge.schema import index_relationships_by_target_type
from reference.tracker.migrations import steps

V6 = steps().index(drop_unread_indexes)   # the version the v7 step starts from

# the definitions a v6 store carries (schema v1 and the knowledge layer's tables before v7)
_V6_INDEXES = {"idx_memories_key_hash": "memories(key_hash)", "idx_rel_source": "relationships(source_id)",
               "idx_rel_type": "relationships(type)", "idx_keys_kind": "keys(kind)",
               "idx_temporal_document_date": "temporal_data(document_date)",
               "idx_temporal_recorded_date": "temporal_data(recorded_date)"}
TEXTS = ["Fixed authClient.refresh() in src/features/auth/session.ts",
         "authClient.refresh() races again in src/features/auth/session.ts",
         "billing rounding in lib/billing/invoice.py, see authClient.refresh()"]


def _indexes(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}


def _store(path, clock=None):
    store = MemoryStore.open(path, clock=clock or LogicalClock(1_767_225_600.0))
    return store, KnowledgeLayer.for_store(store)


def _rows(conn: sqlite3.Connection) -> list:
    return [conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
            for t in ("memories", "keys", "relationships", "temporal_data", "memory_layers", "entity_mentions")]


def _older_store(path, statements: list[str], version: int) -> list:
    """A store of TEXTS taken back to `version` by `statements` (raw SQL); its rows before reopening."""
    store, _ = _store(path)
    for text in TEXTS:
        store.write_memory(text)
    store.close()
    conn = sqlite3.connect(path / "tracker.db", isolation_level=None)
    for sql in statements:
        conn.execute(sql)
    conn.execute(f"PRAGMA user_version={version}")
    before = _rows(conn)
    conn.close()
    return before


def test_a_fresh_store_has_none_of_the_unread_indexes(tmp_path):
    store, layer = _store(tmp_path / "s")
    for text in TEXTS:
        store.write_memory(text)
    conn = store.tracker.conn()
    assert not _indexes(conn) & set(UNREAD_INDEXES)
    assert {"idx_rel_target_type", "idx_memories_task", "idx_mentions_doc"} <= _indexes(conn)
    assert store.tracker.schema_version() == LATEST
    store.close()


def test_a_v6_store_migrates_dropping_them_and_keeps_every_row(tmp_path):
    before = _older_store(tmp_path / "s", [f"CREATE INDEX {name} ON {on}" for name, on in _V6_INDEXES.items()], V6)
    store, layer = _store(tmp_path / "s")
    conn = store.tracker.conn()
    assert store.tracker.migrated_from == V6 and store.tracker.schema_version() == LATEST
    assert not _indexes(conn) & set(UNREAD_INDEXES)
    assert _rows(conn) == before
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert layer.relationships(before[0][0][0])   # still answered
    store.close()


def test_every_lookup_of_the_write_and_read_paths_searches_an_index(tmp_path):
    """Each statement the knowledge layer, the relationship and temporal reads and a delete run: no full scan
    of a table where a lookup was asked for (a dropped index some query needed would show up here)."""
    store, layer = _store(tmp_path / "s")
    ids = [store.write_memory(text).id for text in TEXTS]
    conn = store.tracker.conn()
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    store.write_memory("authClient.refresh() fixed for good in src/features/auth/session.ts")
    layer.relationships(ids[0])
    relationship_table.touching(conn, ids)
    relationship_table.into(conn, ids, ("updates", "extends"))
    temporal_table.get_many(conn, ids)
    layer.document_entities(ids[1])
    store.delete_memory(ids[2])
    conn.set_trace_callback(None)
    lookups = [s for s in seen if " WHERE " in s and s.lstrip().upper().startswith(("SELECT", "DELETE", "UPDATE"))
               and "sqlite_sequence" not in s]
    assert len(lookups) >= 15 and any("target_id" in s for s in lookups)
    for sql in lookups:
        plan = [r[3] for r in conn.execute("EXPLAIN QUERY PLAN " + sql)]
        assert not [p for p in plan if p.startswith("SCAN ")], (sql[:200], plan)
    store.close()


def test_a_v8_store_gets_the_target_type_index_in_place_of_the_target_index(tmp_path):
    before = _older_store(tmp_path / "s", ["DROP INDEX idx_rel_target_type",
                                           "CREATE INDEX idx_rel_target ON relationships(target_id)"],
                          steps().index(index_relationships_by_target_type))
    store, layer = _store(tmp_path / "s")
    conn = store.tracker.conn()
    assert store.tracker.schema_version() == LATEST
    assert "idx_rel_target" not in _indexes(conn) and "idx_rel_target_type" in _indexes(conn)
    assert _rows(conn) == before and conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    plan = " ".join(r[3] for r in conn.execute(
        "EXPLAIN QUERY PLAN SELECT source_id FROM relationships WHERE target_id = ? AND type = ?", ("a", "b")))
    assert "idx_rel_target_type" in plan
    store.close()
