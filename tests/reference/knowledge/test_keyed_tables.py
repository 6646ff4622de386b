"""Schema v8: temporal_data and memory_layers are keyed by document id (WITHOUT ROWID), fresh or migrated."""
from __future__ import annotations

import sqlite3

from reference.clock import LogicalClock
from reference.knowledge import KnowledgeLayer
from reference.knowledge.schema import KEYED_BY_DOCUMENT, key_by_document
from reference.store import MemoryStore
from reference.tracker import LATEST
from reference.tracker.migrations import steps

V7 = steps().index(key_by_document)   # the version the v8 step starts from

TEXTS = ["Fixed authClient.refresh() in src/features/auth/session.ts on 2025-03-04",
         "authClient.refresh() races again in src/features/auth/session.ts",
         "billing rounding in lib/billing/invoice.py"]


def _open(path):
    store = MemoryStore.open(path, clock=LogicalClock(1_767_225_600.0))
    return store, KnowledgeLayer.for_store(store)


def _without_rowid(conn, table: str) -> bool:
    return "WITHOUT ROWID" in conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]


def _rows(conn) -> list:
    return [conn.execute(f"SELECT * FROM {t} ORDER BY document_id").fetchall() for t in KEYED_BY_DOCUMENT]


def test_fresh_tables_are_keyed_by_document(tmp_path):
    store, layer = _open(tmp_path / "s")
    ids = [store.write_memory(t).id for t in TEXTS]
    conn = store.tracker.conn()
    assert all(_without_rowid(conn, t) for t in KEYED_BY_DOCUMENT)
    assert layer.temporal(ids[0]).document_date is not None and len(_rows(conn)[1]) == 3
    store.close()


def test_rowid_tables_of_an_older_store_are_rebuilt_with_their_rows(tmp_path):
    store, layer = _open(tmp_path / "s")
    ids = [store.write_memory(t).id for t in TEXTS]
    layer.record_access(ids[:1])
    before = [layer.temporal(m) for m in ids]
    store.close()
    conn = sqlite3.connect(tmp_path / "s" / "tracker.db", isolation_level=None)
    for table in KEYED_BY_DOCUMENT:   # back to the v7 definition: the same table with a rowid
        sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
        conn.execute(f"ALTER TABLE {table} RENAME TO old_{table}")
        conn.execute(sql.replace(" WITHOUT ROWID", ""))
        conn.execute(f"INSERT INTO {table} SELECT * FROM old_{table}")
        conn.execute(f"DROP TABLE old_{table}")
    conn.execute("CREATE INDEX idx_layers_layer ON memory_layers(layer)")  # an index on one is made again
    conn.execute(f"PRAGMA user_version={V7}")
    assert not any(_without_rowid(conn, t) for t in KEYED_BY_DOCUMENT)
    rows = _rows(conn)
    conn.close()
    store, layer = _open(tmp_path / "s")
    conn = store.tracker.conn()
    assert store.tracker.migrated_from == V7 and store.tracker.schema_version() == LATEST
    assert all(_without_rowid(conn, t) for t in KEYED_BY_DOCUMENT)
    assert _rows(conn) == rows and [layer.temporal(m) for m in ids] == before
    assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'idx_layers_layer'").fetchone() == (1,)
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    store.write_memory("authClient.refresh() fixed for good")   # and writes go on
    assert len(_rows(conn)[0]) == 4
    store.close()
