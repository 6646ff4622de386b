"""tracker.db: pragmas, migrations, key registry, per-thread connections, filters, FTS escaping."""
from __future__ import annotations

import json
import sqlite3
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference.errors import KeyCollision
from reference.memories.record import MemoryEntry
from reference.tracker import (LATEST, InvalidFilter, MemoryFilter, SchemaTooNew, Tracker, check_where_metadata,
                               from_db, fts_match, to_db)
from reference.tracker.migrations import migrate


def entry(i: int, **kw) -> MemoryEntry:
    base = dict(id=f"mem:{i:08x}", key_hash=1000 + i, task=None, insights=(), context=(), symbol_keys=(),
                text=f"memory number {i}", tags=(), metadata={}, created_at=float(i), updated_at=float(i),
                blob_offset=None, blob_length=None)
    base.update(kw)
    return MemoryEntry(**base)


@pytest.fixture
def tracker(tmp_path):
    t = Tracker(tmp_path / "tracker.db")
    yield t
    t.close()


def test_wal_mode_and_busy_timeout(tmp_path):
    t = Tracker(tmp_path / "tracker.db", busy_timeout_ms=1234)
    conn = t.conn()
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 1234
    assert t.schema_version() == LATEST >= 2
    t.close()


def test_migrates_a_version_1_file_and_keeps_its_rows(tmp_path):
    path = tmp_path / "tracker.db"
    conn = sqlite3.connect(path, isolation_level=None)
    assert migrate(conn, str(path), target=1) == (0, 1)
    # a row written by version-1 code: exactly the seed 000 §3.1 columns
    conn.execute(
        "INSERT INTO memories(id, task, insights, context, symbol_keys, text, tags, blob_offset, blob_length, "
        "key_hash, created_at, updated_at) VALUES ('mem:0000abcd', 'task:debug', '[]', '[\"context:auth\"]', '[]', "
        "'legacy refresh note', '[\"legacy\"]', 16, 10, 77, 5.0, NULL)"
    )
    conn.close()
    t = Tracker(path)
    assert t.migrated_from == 1 and t.schema_version() == LATEST
    e = t.get_memory_by_key(77)
    assert (e.id, e.text, e.context, e.tags, e.metadata) == ("mem:0000abcd", "legacy refresh note",
                                                           ("context:auth",), ("legacy",), {})
    hits = t.memories.fts(t.conn(), fts_match("refresh"), MemoryFilter(), 5)
    assert [h.id for h, _ in hits] == ["mem:0000abcd"]  # the FTS index was built from the old rows
    assert [h.id for h, _ in t.memories.fts(t.conn(), fts_match("legacy"), MemoryFilter(tags=("legacy",)), 5)]
    t.close()


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "tracker.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version=99")
    conn.close()
    with pytest.raises(SchemaTooNew, match="99"):
        Tracker(path)


def test_key_registry_detects_collisions_with_an_injected_hash(tmp_path):
    t = Tracker(tmp_path / "tracker.db", hash_fn=lambda key: 42)
    assert t.register_key("file:a.py", "file") == 42
    assert t.register_key("file:a.py", "file") == 42  # same key again: fine
    with pytest.raises(KeyCollision) as exc:
        t.register_key("file:b.py", "file")
    assert "file:a.py" in str(exc.value) and "file:b.py" in str(exc.value)
    assert t.keys.get_key(t.conn(), 42) == "file:a.py"
    assert t.counts()["keys"] == 1
    t.close()


def test_resolve_type_and_u64_hashes_above_2_63(tmp_path):
    big = (1 << 64) - 1
    t = Tracker(tmp_path / "tracker.db", hash_fn=lambda key: big if key.startswith("mem") else 3)
    t.register_key("mem:00000001", "memory")
    t.register_key("sym:a.py#f:function:1:2", "symbol")
    assert t.resolve_type(big) == "memory"
    assert t.resolve_type(3) == "symbol"
    assert t.resolve_type(4) is None
    assert t.conn().execute("SELECT key_hash FROM keys WHERE kind='memory'").fetchone()[0] == -1
    t.close()


def test_codec_round_trip():
    for h in (0, 1, (1 << 63) - 1, 1 << 63, (1 << 64) - 1):
        assert from_db(to_db(h)) == h
        assert -(1 << 63) <= to_db(h) < (1 << 63)
    with pytest.raises(ValueError):
        to_db(1 << 64)


def test_each_thread_gets_its_own_connection_and_writes_land(tracker):
    conns, errors = [], []

    def work(n: int) -> None:
        try:
            conns.append(tracker.conn())
            for i in range(50):
                tracker.register_key(f"file:t{n}/f{i}.py", "file")
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    assert len({id(c) for c in conns}) == 4
    assert tracker.counts()["keys"] == 200


def test_transaction_rolls_back_on_error(tracker):
    with pytest.raises(RuntimeError):
        with tracker.tx() as conn:
            tracker.memories.insert(conn, entry(1))
            raise RuntimeError("boom")
    assert tracker.counts()["memories"] == 0
    assert tracker.memories.fts(tracker.conn(), fts_match("memory"), MemoryFilter(), 5) == []


def test_delete_removes_row_and_fts_entry(tracker):
    with tracker.tx() as conn:
        tracker.memories.insert(conn, entry(1, text="alpha beta", tags=("gamma",)))
        tracker.memories.insert(conn, entry(2, text="alpha delta"))
    with tracker.tx() as conn:
        assert tracker.memories.delete(conn, 1001)
        assert not tracker.memories.delete(conn, 1001)
    ids = [e.id for e, _ in tracker.memories.fts(tracker.conn(), fts_match("alpha gamma"), MemoryFilter(), 5)]
    assert ids == ["mem:00000002"]
    # the FTS index is still consistent: SQLite's own integrity check agrees
    tracker.conn().execute("INSERT INTO memories_fts(memories_fts, rank) VALUES ('integrity-check', 0)")


TASKS = ["task:debug", "task:refactor", None]
CONTEXTS = ["context:auth", "context:api", "context:ui"]
TAGS = ["x", "y-z", 'q"uote']
BRANCHES = ["main", "dev", None]

memory_specs = st.lists(
    st.tuples(st.sampled_from(TASKS), st.lists(st.sampled_from(CONTEXTS), unique=True, max_size=3),
              st.lists(st.sampled_from(TAGS), unique=True, max_size=3), st.sampled_from(BRANCHES),
              st.lists(st.sampled_from(["e1", "e2", "e3"]), unique=True, max_size=2)),
    min_size=1, max_size=12)
filters = st.tuples(st.sampled_from(TASKS), st.lists(st.sampled_from(CONTEXTS), unique=True, max_size=2),
                    st.lists(st.sampled_from(TAGS), unique=True, max_size=2),
                    st.none() | st.lists(st.sampled_from(BRANCHES), min_size=1, max_size=2),
                    st.none() | st.lists(st.sampled_from(["e1", "e2", "e3"]), min_size=1, max_size=2))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(specs=memory_specs, flt=filters)
def test_filters_match_a_plain_python_model(tmp_path_factory, specs, flt):
    t = Tracker(tmp_path_factory.mktemp("t") / "tracker.db")
    model = []
    with t.tx() as conn:
        for i, (task, ctx, tags, branch, ents) in enumerate(specs):
            meta = {"entities": ents}
            if branch is not None:
                meta["branch"] = branch
            t.memories.insert(conn, entry(i, task=task, context=tuple(ctx), tags=tuple(tags), metadata=meta))
            model.append((f"mem:{i:08x}", task, set(ctx), set(tags), branch, set(ents)))
    task, ctx, tags, branches, ents = flt
    where = {}
    if branches is not None:
        where["branch"] = branches
    if ents is not None:
        where["entities"] = ents
    got = {e.id for e in t.memories.query(t.conn(), MemoryFilter(task, tuple(ctx), (), tuple(tags), where or None))}
    want = {
        mid for mid, mtask, mctx, mtags, mbranch, ments in model
        if (task is None or mtask == task) and set(ctx) <= mctx and set(tags) <= mtags
        and (branches is None or mbranch in branches)  # None in the list matches a missing key
        and (ents is None or bool(ments & set(ents)))
    }
    assert got == want
    t.close()


def test_where_metadata_validation():
    assert check_where_metadata(None) is None
    assert check_where_metadata({"branch": ("main",)}) == {"branch": ["main"]}
    for bad in ({"branch": "main"}, {"a b": ["x"]}, {"k": [{"nested": 1}]}, ["branch"]):
        with pytest.raises(InvalidFilter):
            check_where_metadata(bad)


@pytest.mark.parametrize("query", ['say "hi', "a-b", "col:umn", "star*", "AND OR NOT", "NEAR(a b)", "(x", "^y",
                                   "x'y", "{a b}:c", "+"])
def test_hostile_fts_queries_never_raise(tracker, query):
    with tracker.tx() as conn:
        tracker.memories.insert(conn, entry(1, text="say hi to a b col umn star x y NEAR"))
    match = fts_match(query)
    if match is not None:
        tracker.memories.fts(tracker.conn(), match, MemoryFilter(), 5)
        tracker.code.fts_chunks(tracker.conn(), match, 5)


def test_fts_match_quotes_each_word():
    assert fts_match('say "hi" -now') == '"say" OR "hi" OR "now"'
    assert fts_match("!!! ---") is None
    assert fts_match("Token token") == '"Token"'


def test_bm25_prefers_the_document_with_more_query_terms(tracker):
    with tracker.tx() as conn:
        tracker.memories.insert(conn, entry(1, text="refresh token race condition"))
        tracker.memories.insert(conn, entry(2, text="refresh the page"))
        tracker.memories.insert(conn, entry(3, text="unrelated words only"))
    hits = tracker.memories.fts(tracker.conn(), fts_match("token race refresh"), MemoryFilter(), 5)
    assert [e.id for e, _ in hits] == ["mem:00000001", "mem:00000002"]
    assert hits[0][1] > hits[1][1] > 0


def test_porter_stemming_matches_word_forms(tracker):
    with tracker.tx() as conn:
        tracker.memories.insert(conn, entry(1, text="the worker was refreshing tokens"))
    assert tracker.memories.fts(tracker.conn(), fts_match("refresh token"), MemoryFilter(), 5)


def test_metadata_is_stored_as_json(tracker):
    with tracker.tx() as conn:
        tracker.memories.insert(conn, entry(1, metadata={"b": 1, "a": [1, 2]}))
    raw = tracker.conn().execute("SELECT metadata FROM memories").fetchone()[0]
    assert json.loads(raw) == {"a": [1, 2], "b": 1}
