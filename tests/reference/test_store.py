"""MemoryStore: writes, reads, deletes, validation, ids, telemetry, redaction, persistence, determinism."""
from __future__ import annotations

import hashlib
import json
import re
import threading

import pytest

from reference.clock import LogicalClock
from reference.errors import InvalidKey, KeyCollision, NotFound, StoreError, UnknownSlug
from reference.keys import hash64
from reference.memories.input import InvalidMemory
from reference.store import MemoryStore, StoreClosed
from reference.telemetry import ListSink
from reference.tracker import LATEST


@pytest.fixture
def clock():
    return LogicalClock(1_700_000_000.0)


@pytest.fixture
def store(tmp_path, clock):
    s = MemoryStore.open(tmp_path / "data", clock=clock)
    yield s
    s.close()


def expected_id(created_at: float, seq: int, text: str, salt: int = 0) -> str:
    """The documented id formula, written out independently of the store."""
    digest = hashlib.blake2b(f"{created_at!r}\x1f{seq}\x1f{salt}\x1f{text}".encode(), digest_size=4).hexdigest()
    return "mem:" + digest


def test_write_get_and_the_blob_record(store, clock):
    e = store.write_memory("The auth token refresh logic has a race condition...", task="task:debug",
                           insights=["insight:constraint", "insight:pitfall"], context=["context:frontend",
                                                                                       "context:auth"],
                           symbol_keys=[12345678901234, 98765432109876], tags=["race-condition", "token-refresh"])
    assert e.id == expected_id(1_700_000_000.0, 1, e.text)
    assert e.key_hash == hash64(e.id)
    assert e.created_at == 1_700_000_000.0
    assert store.get_memory(e.id) == e
    record = json.loads(store.blob.read(e.blob_offset))
    assert record == {  # seed 000 §3.2, field for field
        "id": e.id, "task": "task:debug", "insights": ["insight:constraint", "insight:pitfall"],
        "context": ["context:frontend", "context:auth"], "symbol_keys": [12345678901234, 98765432109876],
        "text": "The auth token refresh logic has a race condition...", "tags": ["race-condition", "token-refresh"],
        "created_at": "2023-11-14T22:13:20Z",
    }
    assert list(record) == ["id", "task", "insights", "context", "symbol_keys", "text", "tags", "created_at"]
    assert store.read_content(e.key_hash) == store.blob.read(e.blob_offset)
    assert e.to_dict()["insights"] == ["insight:constraint", "insight:pitfall"]


def test_memory_row_has_the_seed_columns(store):
    e = store.write_memory("x marks the spot", task="task:research", metadata={"branch": "main"})
    cols = [r[1] for r in store.tracker.conn().execute("PRAGMA table_info(memories)")]
    assert cols == ["id", "task", "insights", "context", "symbol_keys", "text", "tags", "blob_offset",
                    "blob_length", "key_hash", "created_at", "updated_at", "metadata", "row_sum"]
    row = store.tracker.conn().execute("SELECT insights, context, symbol_keys, tags, metadata FROM memories").fetchone()
    assert row == ("[]", "[]", "[]", "[]", '{"branch":"main"}')
    assert json.loads(store.blob.read(e.blob_offset))["metadata"] == {"branch": "main"}


def test_ids_are_deterministic_and_sequence_numbered(store, clock):
    a = store.write_memory("same text")
    b = store.write_memory("same text")  # same time, same text: the sequence number separates them
    assert (a.id, b.id) == (expected_id(clock.now(), 1, "same text"), expected_id(clock.now(), 2, "same text"))
    assert re.fullmatch(r"mem:[0-9a-f]{8}", a.id)


def test_a_taken_id_moves_to_the_next_salt(store, clock):
    taken = expected_id(clock.now(), 1, "salted")
    store.tracker.register_key(taken, "memory")
    e = store.write_memory("salted")
    assert e.id == expected_id(clock.now(), 1, "salted", salt=1)


def test_a_degenerate_hash_function_fails_loudly(tmp_path, clock):
    s = MemoryStore.open(tmp_path / "d", clock=clock, hash_fn=lambda key: 1)
    s.write_memory("first")
    with pytest.raises(KeyCollision):
        s.write_memory("second")
    assert s.tracker.counts()["memories"] == 1
    s.close()


@pytest.mark.parametrize("kwargs,error", [
    (dict(text=""), InvalidMemory),
    (dict(text=42), InvalidMemory),
    (dict(text="t", task="task:nope"), UnknownSlug),
    (dict(text="t", task="debug"), UnknownSlug),
    (dict(text="t", insights="insight:decision"), InvalidMemory),
    (dict(text="t", insights=["insight:whatever"]), UnknownSlug),
    (dict(text="t", context=["context:moon"]), UnknownSlug),
    (dict(text="t", symbol_keys=["sym:a.py#f:function:1:2"]), InvalidMemory),
    (dict(text="t", symbol_keys=[-1]), InvalidMemory),
    (dict(text="t", symbol_keys=[1 << 64]), InvalidMemory),
    (dict(text="t", symbol_keys=[True]), InvalidMemory),
    (dict(text="t", tags="tag"), InvalidMemory),
    (dict(text="t", tags=[1]), InvalidMemory),
    (dict(text="t", tags=[" "]), InvalidMemory),
    (dict(text="t", metadata=["x"]), InvalidMemory),
    (dict(text="t", metadata={"k": {1, 2}}), InvalidMemory),
    (dict(text="t", metadata={1: "x"}), InvalidMemory),
    (dict(text="t", tags=["a\x00b"]), InvalidMemory),                   # U+0000: no filter could match it
    (dict(text="t", metadata={"branch": "a\x00"}), InvalidMemory),
    (dict(text="t", metadata={"k\x00": 1}), InvalidMemory),
    (dict(text="t", metadata={"k": [1, {"x": ["ok", "\x00"]}]}), InvalidMemory),
    (dict(text="t\ud800"), InvalidMemory),                               # a lone surrogate: not UTF-8 text
    (dict(text="t", tags=["\udfff"]), InvalidMemory),
    (dict(text="t", metadata={"k": ["é", "\ud800"]}), InvalidMemory),
    (dict(text="t", metadata={"\ud800": 1}), InvalidMemory),
])
def test_bad_input_is_a_clear_error_and_writes_nothing(store, kwargs, error):
    store.write_memory("an existing memory")
    before = (store.tracker.counts(), store.blob.size(), store.vectors.stats()["rows"])
    with pytest.raises(error) as exc:
        store.write_memory(**kwargs)
    assert isinstance(exc.value, StoreError) and str(exc.value)
    assert (store.tracker.counts(), store.blob.size(), store.vectors.stats()["rows"]) == before


def test_a_nul_is_refused_in_labels_and_kept_in_text(store):
    with pytest.raises(InvalidMemory, match=r"metadata\['k'\]\[1\]\['x'\]\[1\] holds U\+0000"):
        store.write_memory("t", metadata={"k": [1, {"x": ["ok", "\x00"]}]})
    m = store.write_memory("text with a \x00 in it", metadata={"k": "v"})
    with pytest.raises(InvalidMemory, match="metadata\\['k'\\] holds U\\+0000"):
        store.update_metadata(m.id, {"k": "v\x00"})
    assert store.get_memory(m.id).text == "text with a \x00 in it" and store.get_memory(m.id).metadata == {"k": "v"}


def test_a_lone_surrogate_is_named_where_it_is(store):
    with pytest.raises(InvalidMemory, match=r"^text holds a lone surrogate U\+D800 at index 2, which is not UTF-8"):
        store.write_memory("ab\ud800")
    with pytest.raises(InvalidMemory, match=r"^metadata\['k'\]\[1\] holds a lone surrogate U\+DFFF at index 0"):
        store.write_memory("t", metadata={"k": ["é", "\udfff"]})
    assert store.tracker.counts()["memories"] == 0


def test_get_memory_with_bad_or_unknown_ids(store):
    assert store.get_memory("mem:0badc0de") is None
    with pytest.raises(InvalidKey):
        store.get_memory("file:a.py")
    with pytest.raises(InvalidKey):
        store.get_memory("mem:XYZ")


def test_delete_removes_row_fts_and_vector(store):
    keep = store.write_memory("alpha keeps going")
    gone = store.write_memory("alpha disappears")
    assert store.delete_memory(gone.id) is True
    assert store.get_memory(gone.id) is None
    assert [h.id for h in store.keyword_search("alpha")] == [keep.id]
    assert gone.key_hash not in store.vectors
    assert store.vector_scores("alpha", [gone.id, keep.id]).keys() == {keep.id}
    assert [h.id for h in store.search_all("alpha disappears")] == [keep.id]
    assert store.delete_memory(gone.id) is False
    assert store.tracker.resolve_type(gone.key_hash) == "memory"  # ids are never re-issued


def test_update_metadata_merges_and_appends_a_record(store, clock):
    e = store.write_memory("placeholder commit note", metadata={"branch": "main", "commit_sha": None})
    clock.advance(5)
    u = store.update_metadata(e.id, {"commit_sha": "abc123"})
    assert u.metadata == {"branch": "main", "commit_sha": "abc123"} and u.updated_at == clock.now()
    assert store.get_memory(e.id) == u
    assert json.loads(store.blob.read(u.blob_offset))["metadata"] == {"branch": "main", "commit_sha": "abc123"}
    assert [m.id for m in store.list_memories(where_metadata={"commit_sha": ["abc123"]})] == [e.id]
    with pytest.raises(NotFound):
        store.update_metadata("mem:00000000", {"a": 1})


def test_telemetry_events(tmp_path, clock):
    sink = ListSink()
    s = MemoryStore.open(tmp_path / "d", clock=clock, telemetry=sink)
    s.set_context(scope="repo:x", run_id="run-1", task_id="t-9")
    e = s.write_memory("telemetry check")
    clock.advance(2)
    s.get_memory(e.id)
    s.search_memories("telemetry")
    s.delete_memory(e.id)
    ops = [(ev.op, ev.memory_id, ev.entity_type, ev.timestamp) for ev in sink.events]
    assert ops == [("write", e.id, "memory", 1_700_000_000.0), ("read", e.id, "memory", 1_700_000_002.0),
                   ("query", None, "memory", 1_700_000_002.0), ("delete", e.id, "memory", 1_700_000_002.0)]
    for ev in sink.events:
        assert (ev.scope, ev.run_id, ev.task_id) == ("repo:x", "run-1", "t-9")
        assert ev.latency_ms is not None and ev.latency_ms >= 0
    assert sink.events[2].extra["results"] == 1
    s.close()


def test_redactor_reaches_every_stored_byte(tmp_path, clock):
    s = MemoryStore.open(tmp_path / "d", clock=clock, redactor=lambda t: t.replace("hunter2", "[REDACTED]"))
    e = s.write_memory("the db password is hunter2", tags=["hunter2-tag"], metadata={"note": "hunter2"})
    assert "hunter2" not in json.dumps(e.to_dict())
    assert s.keyword_search("hunter2") == []
    s.close()
    for f in (p for p in (tmp_path / "d").rglob("*") if p.is_file()):
        assert b"hunter2" not in f.read_bytes(), f.name


def test_persistence_same_answers_after_reopen(tmp_path, clock):
    path = tmp_path / "d"
    s = MemoryStore.open(path, clock=clock)
    for i, text in enumerate(["token refresh race in auth", "billing rounds with Decimal", "auth cookies expire",
                              "refresh the cache nightly"]):
        clock.advance(1)
        s.write_memory(text, context=["context:auth"] if "auth" in text else None, tags=[f"t{i}"])
    queries = lambda st: (  # noqa: E731
        [h.to_dict() for h in st.search_memories("auth refresh")],
        [h.to_dict() for h in st.search_memories("auth", context=["context:auth"])],
        [h.to_dict() for h in st.keyword_search("refresh auth")],
        [h.to_dict() for h in st.search_all("refresh", types=["memory"])],
        [m.to_dict() for m in st.list_memories()],
    )
    before = queries(s)
    s.close()
    s2 = MemoryStore.open(path, clock=clock)
    assert queries(s2) == before
    assert s2.blob.recovered is None
    s2.close()


def _script(s: MemoryStore, clock: LogicalClock, root) -> list:
    out = []
    for i in range(12):
        clock.advance(1.5)
        e = s.write_memory(f"memory {i} about {'auth' if i % 2 else 'billing'} and tokens",
                           task="task:debug" if i % 3 else None, context=["context:auth"] if i % 2 else [],
                           tags=[f"tag{i % 4}"], metadata={"branch": "main" if i % 2 else "dev"})
        out.append(e.id)
    s.delete_memory(out[3])
    s.index_directory(root)
    out.append([h.to_dict() for h in s.search_memories("auth tokens", top_k=5)])
    out.append([h.to_dict() for h in s.search_all("tokens", top_k=8)])
    out.append([h.to_dict() for h in s.keyword_search("billing")])
    return out


def _dump_tables(s: MemoryStore) -> dict:
    conn = s.tracker.conn()
    return {t: conn.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
            for t in ("meta", "keys", "files", "symbols", "chunks", "memories")}


def test_same_operations_give_identical_stores(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    (root / "m.py").write_text("def tokens():\n    return 'auth'\n\n\nclass Bill:\n    pass\n")
    stores, results = [], []
    for name in ("a", "b"):
        clock = LogicalClock(1_700_000_000.0)
        s = MemoryStore.open(tmp_path / name, clock=clock)
        results.append(_script(s, clock, root))
        stores.append(s)
    assert results[0] == results[1]
    assert _dump_tables(stores[0]) == _dump_tables(stores[1])
    for s in stores:
        s.close()
    for f in ("blob.dat", "vectors.f32", "vectors.tags", "vectors.keys"):
        assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes(), f


def test_concurrent_writers_on_threads(store):
    errors, ids = [], []

    def work(n: int) -> None:
        try:
            for i in range(25):
                ids.append(store.write_memory(f"thread {n} memory {i}").id)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(set(ids)) == 100
    assert store.tracker.counts()["memories"] == 100 and len(store.vectors) == 100
    assert sorted(m.id for m in store.iter_memories()) == sorted(ids)


def test_closed_store_refuses_calls(tmp_path, clock):
    s = MemoryStore.open(tmp_path / "d", clock=clock)
    s.close()
    with pytest.raises(StoreClosed):
        s.write_memory("late")


def test_open_needs_a_clock(tmp_path):
    with pytest.raises(StoreError, match="clock"):
        MemoryStore.open(tmp_path / "d", clock=None)


def test_stats_counts_and_bytes(store):
    store.write_memory("one")
    st = store.stats()
    assert st["counts"]["memories"] == 1 and st["vectors"]["live"] == 1
    assert st["bytes"]["blob.dat"] == store.blob.size() and st["schema_version"] == LATEST
    assert st["embedder"] == {"name": "hashing-v1", "dim": 256}


def _write_from_process(path: str, tag: str, n: int) -> None:
    s = MemoryStore.open(path, clock=LogicalClock(1_700_000_000.0))
    for i in range(n):
        s.write_memory(f"process {tag} memory {i}", tags=[tag])
    s.close()


def test_two_processes_write_to_one_store(tmp_path):
    import multiprocessing
    path = tmp_path / "shared"
    MemoryStore.open(path, clock=LogicalClock()).close()
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_write_from_process, args=(str(path), tag, 40)) for tag in ("p", "q")]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
        assert p.exitcode == 0
    s = MemoryStore.open(path, clock=LogicalClock())
    entries = list(s.iter_memories())
    assert sorted(e.text for e in entries) == sorted(f"process {t} memory {i}" for t in "pq" for i in range(40))
    assert s.tracker.get_meta("seq:memory") == "80"  # one sequence across both processes
    for e in entries:
        assert json.loads(s.blob.read(e.blob_offset))["id"] == e.id
        assert e.key_hash in s.vectors
    assert s.blob.recovered is None and s.vectors.recovered_bytes == 0
    s.close()


@pytest.mark.parametrize("kwargs", [{"offset": 2 ** 64}, {"offset": -1}, {"limit": 2 ** 63}, {"offset": True}])
def test_list_bounds_are_validation_errors_not_overflows(store, kwargs):
    from reference.memories.args import InvalidArgument

    with pytest.raises(InvalidArgument, match=next(iter(kwargs))):
        store.list_memories(**kwargs)


def test_update_listeners_hear_every_metadata_update_with_the_memory_as_updated(tmp_path):
    """`add_update_listener`: the store's `update_metadata` and a layer's own update (Memory Lane's feedback) alike;
    an update that fails validation calls nothing; the updates counter moves with each (memory_revision.UPDATES)."""
    from reference.lane import MemoryLane
    from reference.tracker import memory_revision

    with MemoryStore.open(tmp_path, clock=LogicalClock(1.0)) as store:
        heard = []
        store.add_update_listener(lambda e: heard.append((e.id, dict(e.metadata))))
        a = store.write_memory("placeholder: csv import", metadata={"placeholder": True})
        assert heard == []                                       # a write is not an update
        store.update_metadata(a.id, {"placeholder": False, "files_changed": ["cli.py"]})
        assert heard == [(a.id, {"placeholder": False, "files_changed": ["cli.py"]})]
        with pytest.raises(InvalidMemory):
            store.update_metadata(a.id, {"bad": object()})
        assert len(heard) == 1
        lane = MemoryLane.for_store(store)
        b = lane.store("roll back by re-pointing the symlink", memory_type="learning")
        lane.feedback(b.id, "helpful")
        assert heard[-1][0] == b.id and heard[-1][1]["feedback_count"] == 1
        assert memory_revision.current(store.tracker.conn(), memory_revision.UPDATES) == 2
        # a listener runs inside the update's transaction: one that raises rolls the update back
        store.add_update_listener(lambda e: (_ for _ in ()).throw(RuntimeError("boom")) if "boom" in e.metadata else 0)
        rev = memory_revision.current(store.tracker.conn())
        with pytest.raises(RuntimeError, match="boom"):
            store.update_metadata(a.id, {"boom": 1})
        assert "boom" not in store.get_memory(a.id).metadata and memory_revision.current(store.tracker.conn()) == rev
