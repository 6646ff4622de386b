"""Multi-row inserts store what one statement per row stores: rows, AUTOINCREMENT ids, ignored conflicts."""
from __future__ import annotations

import sqlite3

from hypothesis import given, settings
from hypothesis import strategies as st

from reference.knowledge.schema import knowledge_schema
from reference.tracker import multirow

_COLS = "source_id, target_id, type, confidence, metadata, created_at"
row = st.tuples(st.sampled_from(["m1", "m2", "m3", "m4"]), st.sampled_from(["m1", "m2", "m3", "m4"]),
                st.sampled_from(["relates_to", "relates_to", "updates", "bogus"]), st.floats(0, 1), st.just("{}"),
                st.just("t"))


def _build(batches, multi: bool):
    conn = sqlite3.connect(":memory:", isolation_level=None)
    knowledge_schema(conn)
    for rows in batches:
        conn.execute("BEGIN")
        if multi:
            multirow.insert_rows(conn, f"INSERT OR IGNORE INTO relationships({_COLS}) VALUES", 6, rows)
        else:
            conn.executemany(f"INSERT OR IGNORE INTO relationships({_COLS}) VALUES (?, ?, ?, ?, ?, ?)", rows)
        conn.execute("COMMIT")
    return (conn.execute("SELECT * FROM relationships ORDER BY id").fetchall(),
            conn.execute("SELECT * FROM sqlite_sequence").fetchall())


@settings(max_examples=60, deadline=None)
@given(batches=st.lists(st.lists(row, max_size=300), max_size=5))
def test_multirow_equals_executemany(batches):
    assert _build(batches, True) == _build(batches, False)


def test_chunks_are_powers_of_two(monkeypatch):
    seen = []
    monkeypatch.setattr(multirow, "MAX_CHUNK", 8)
    monkeypatch.setattr(multirow, "EXACT_TAIL", 1)

    class Conn:
        def execute(self, sql, params):
            seen.append(len(params))
    multirow.insert_rows(Conn(), "INSERT INTO t(a) VALUES", 1, [(i,) for i in range(21)])
    assert seen == [8, 8, 4, 1]


def test_a_short_tail_is_one_statement(monkeypatch):
    """A single write's few relationships go in one statement; a long run still uses power-of-two chunks."""
    def chunks(n):
        seen = []

        class Conn:
            def execute(self, sql, params):
                assert sql.count("(?)") == len(params)
                seen.append(len(params))
        multirow.insert_rows(Conn(), "INSERT INTO t(a) VALUES", 1, [(i,) for i in range(n)])
        return seen
    assert chunks(11) == [11]
    assert chunks(16) == [16]
    monkeypatch.setattr(multirow, "MAX_CHUNK", 8)
    monkeypatch.setattr(multirow, "EXACT_TAIL", 6)
    assert chunks(21) == [8, 8, 5]
    assert chunks(30) == [8, 8, 8, 6]
