"""`LexicalLayer` follows the store: writes, batches, rollbacks, deletes, metadata updates, other store objects."""
from __future__ import annotations

import numpy as np
import pytest

from reference.clock import LogicalClock
from reference.lexical.index import LexicalIndex
from reference.lexical.layer import LexicalLayer
from reference.lexical.params import FILES_TUNED, TUNED
from reference.store import MemoryStore


def _fresh(store: MemoryStore) -> LexicalIndex:
    """What a rebuild from the stored rows gives: every stored memory, oldest first."""
    index = LexicalIndex()
    for e in sorted(store.list_memories(limit=10_000), key=lambda e: (e.created_at, e.id)):
        index.add(e.id, e.text)
    return index


def _same(layer: LexicalLayer, store: MemoryStore, query: str) -> None:
    want_index = _fresh(store)
    # a filtered ranking right after a write counts the new rows too (the filter mask matches the index)
    newest = max(want_index.row_of, key=want_index.row_of.get)
    kh = np.asarray([store.get_memory(newest).key_hash], dtype=np.uint64)
    assert all(m == newest for m, _ in layer.ranked(query, TUNED.with_(vector_weight=0.0), 5, kh))
    got = layer.ranked(query, TUNED.with_(vector_weight=0.0, recency_weight=0.0, max_share=1.0), 50)
    s = want_index.bm25(query, TUNED.k1, TUNED.b)
    assert sorted(layer.index.row_of) == sorted(want_index.row_of)
    assert {m for m, _ in got} == {want_index.ids[r] for r in range(len(s)) if s[r] > 0}


def test_layer_follows_writes_rollbacks_deletes_and_other_handles(tmp_path):
    clock = LogicalClock(1_700_000_000.0)
    store = MemoryStore.open(tmp_path, clock=clock)
    store.write_memory("before the layer: token refresh in src/auth.py")
    layer = LexicalLayer.for_store(store)
    assert LexicalLayer.for_store(store) is layer
    _same(layer, store, "token refresh")
    clock.advance(1)
    a = store.write_memory("token cache race in src/auth.py")
    store.write_memories([{"text": "refresh queue worker"}, {"text": "token rotation"}])
    _same(layer, store, "token refresh")
    # a write whose transaction fails leaves nothing behind in the index
    store.add_write_listener(lambda e: (_ for _ in ()).throw(RuntimeError("boom")) if "boom" in e.text else None)
    with pytest.raises(RuntimeError):
        store.write_memory("token boom")
    _same(layer, store, "token boom")
    assert all("boom" not in layer.index.ids[r] for r in layer.index.row_of.values())
    assert store.delete_memory(a.id)
    _same(layer, store, "token cache")
    store.update_metadata(store.list_memories(limit=1)[0].id, {"k": "v"})   # moves the revision, no text change
    _same(layer, store, "token")
    # another store object (another process) writes and deletes: reconciled by id
    other = MemoryStore.open(tmp_path, clock=clock)
    clock.advance(1)
    b = other.write_memory("token written elsewhere")
    other.delete_memory(store.list_memories(limit=50)[-1].id)
    other.close()
    _same(layer, store, "token elsewhere")
    assert b.id in layer.index.row_of
    store.close()


def test_a_repeated_read_only_filter_keeps_its_mask_and_extends_it_with_new_rows(tmp_path):
    clock = LogicalClock(1_700_000_000.0)
    store = MemoryStore.open(tmp_path, clock=clock)
    layer = LexicalLayer.for_store(store)
    ids = []
    for i in range(6):
        clock.advance(1)   # rows follow the write order (a first build reads oldest first, ties by id)
        ids.append(store.write_memory(f"token {i}", context=["context:auth"] if i % 2 else []).id)
    flt = store.memories.filter(context=["context:auth"])
    allowed = store.memories.candidates(flt)
    assert not allowed.flags.writeable     # the label index's own array: its mask is kept
    layer.sync()
    first = layer.allowed_rows(allowed).copy()
    assert first.tolist() == [i % 2 == 1 for i in range(6)]
    clock.advance(1)
    store.write_memory("token 6")        # a new row the same array does not hold
    layer.sync()
    again = layer.allowed_rows(allowed)
    assert again.tolist() == first.tolist() + [False]
    fresh = allowed.copy()               # a writable copy is looked up afresh: the same answer
    assert layer.allowed_rows(fresh).tolist() == again.tolist()
    assert {m for m, _ in layer.ranked("token", TUNED.with_(vector_weight=0.0), 10, allowed)} == set(ids[1::2])
    store.close()


def test_layer_counts_write_moments_from_the_memories_created_at(tmp_path):
    """The index's ticks come from each memory's `created_at`, on the first build and on later writes alike:
    writes within MOMENT seconds share a tick (the recency prior's clock)."""
    from reference.lexical.params import MOMENT
    clock = LogicalClock(1_700_000_000.0)
    store = MemoryStore.open(tmp_path, clock=clock)
    store.write_memory("first note")
    clock.advance(1.0)
    store.write_memory("second note, same sitting")
    layer = LexicalLayer.for_store(store)
    layer.sync()
    clock.advance(10 * MOMENT)
    store.write_memory("a later note")
    clock.advance(1.0)
    store.write_memory("and one more right after")
    assert layer.sync().ticks().tolist() == [0, 0, 1, 1]
    store.close()


def test_vector_gives_the_vector_caches_top_k_as_index_rows(tmp_path):
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_700_000_000.0))
    for i in range(40):
        store.write_memory(f"note {i}: token refresh {'cache' if i % 3 else 'queue'} in src/mod{i % 7}.py")
    layer = LexicalLayer.for_store(store)
    qvec = layer.query_vector("token cache refresh")
    for allowed in (None, np.sort(np.asarray([e.key_hash for e in store.list_memories(limit=15)], dtype=np.uint64))):
        rows, cos = layer.vector("token cache refresh", allowed, 12)
        pairs = store.vectors.topk(qvec, 12, allowed, tags=None if allowed is not None else [4], with_ties=True)
        assert rows.dtype == np.int64 and cos.dtype == np.float64 and len(pairs) >= 12
        assert layer.hashes_of(rows).tolist() == [k for k, _ in pairs]
        assert cos.tolist() == [s for _, s in pairs]
    # a key hash the index does not hold (a vector row of something else) is dropped with its score
    keys = np.asarray([layer.hashes_of(np.asarray([3]))[0], 12345, layer.hashes_of(np.asarray([5]))[0]],
                      dtype=np.uint64)
    rows, scores = layer.rows_of(keys, np.asarray([0.5, 0.4, 0.25], dtype=np.float32))
    assert rows.tolist() == [3, 5] and scores.tolist() == [0.5, 0.25]
    store.close()


def test_a_note_bound_to_its_commit_is_refiled_as_a_rebuilt_index_reads_it(tmp_path, monkeypatch):
    """Project memory binds a session's placeholder note to the commit that landed (`files_changed` added): the live
    index re-files it as a commit with the commit's files, so its answers are a reopened store's (issue 27). An
    update through this store is applied from its listener (no reconcile); another process's, by the reconcile."""
    clock = LogicalClock(1_700_000_000.0)
    store = MemoryStore.open(tmp_path, clock=clock)
    layer = LexicalLayer.for_store(store)
    store.write_memory("csv import: parse the header row", metadata={"files_changed": ["sqlite_utils/cli.py"]})
    clock.advance(3_600)
    note = store.write_memory("placeholder: fix the csv import of quoted headers in docs/cli.rst")
    other_note = store.write_memory("placeholder: csv headers with spaces")
    clock.advance(3_600)
    store.write_memory("json export streams rows", metadata={"files_changed": ["sqlite_utils/db.py"]})
    params = TUNED.with_(vector_weight=0.0)
    before = layer.ranked("csv import headers", params, 10)     # kept as the last answer for this query
    assert layer._files_of[layer.index.row_of[note.id]] == ("docs/cli.rst",)

    with monkeypatch.context() as m:
        m.setattr(layer, "_reconcile", lambda conn: pytest.fail("an update through the store reconciled"))
        with pytest.raises(RuntimeError):         # an update rolled back changes nothing
            with store.tracker.tx():
                store.update_metadata(note.id, {"files_changed": ["setup.py"]})
                raise RuntimeError("rolled back")
        assert layer.ranked("csv import headers", params, 10) == before
        store.update_metadata(note.id, {"files_changed": ["sqlite_utils/cli.py", "tests/test_cli.py"]})
        store.update_metadata(note.id, {"feedback_score": 1.2})    # moves the record again; the files stay
        after = layer.ranked("csv import headers", params, 10)
    row = layer.index.row_of[note.id]
    assert layer.index.commits()[row] and layer._files_of[row] == ("sqlite_utils/cli.py", "tests/test_cli.py")
    assert "docs/cli.rst" not in layer.files.paths.row_of      # no memory touches it any more
    assert after != before

    # another process: its write alone is reconciled by id; its update, by the rows' record offsets too
    reconciles = []
    real = layer._reconcile
    monkeypatch.setattr(layer, "_reconcile", lambda conn, updated: reconciles.append(updated) or real(conn, updated))
    elsewhere = MemoryStore.open(tmp_path, clock=clock)
    clock.advance(3_600)
    elsewhere.write_memory("unrelated: docs build")
    layer.sync()
    elsewhere.update_metadata(other_note.id, {"files_changed": ["sqlite_utils/utils.py"]})
    elsewhere.close()
    after = layer.ranked("csv import headers", params, 10)
    assert reconciles == [False, True]
    assert layer._files_of[layer.index.row_of[other_note.id]] == ("sqlite_utils/utils.py",)

    reopened = MemoryStore.open(tmp_path, clock=clock)
    rebuilt = LexicalLayer.for_store(reopened)
    assert after == rebuilt.ranked("csv import headers", params, 10)
    assert layer.locate("csv import headers", params, FILES_TUNED, 10) == \
        rebuilt.locate("csv import headers", params, FILES_TUNED, 10)
    assert layer.index.commits().tolist() == rebuilt.index.commits().tolist() == [True] * 4 + [False]
    reopened.close()
    store.close()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_batches_written_at_one_time_rank_as_in_a_rebuilt_index(tmp_path, seed):
    """A live index adds a batch in the batch's order, a rebuild reads (created_at, id) order: the row numbers of
    memories written at one time differ, but they share a recency tick and ties go by id, so the answers agree."""
    import random
    rng, clock = random.Random(seed), LogicalClock(1_700_000_000.0)
    words = "csv import export parser table insert docs token cli fix".split()
    files = ["a.py", "b/c.py", "d.md", "e/f.py"]
    store = MemoryStore.open(tmp_path, clock=clock)
    layer = LexicalLayer.for_store(store)
    for i in range(30):
        store.write_memories([{"text": " ".join(rng.sample(words, 3)) + " " + rng.choice(files),
                               "metadata": {"files_changed": rng.sample(files, 2)} if rng.random() < 0.5 else {}}
                              for _ in range(rng.randint(1, 5))])
        clock.advance(rng.choice([10, 700, 3_600]))
        if i % 7 == 0:
            layer.sync()
    rebuilt = LexicalLayer.for_store(MemoryStore.open(tmp_path, clock=clock))
    rebuilt.sync()
    layer.sync()
    assert sorted(layer.index.ids) == sorted(rebuilt.index.ids)
    assert layer.index.ids != rebuilt.index.ids            # the same memories in other rows
    params = TUNED.with_(vector_weight=0.0)
    for query in ("csv import", "table insert docs", "token fix cli", "parser e/f.py"):
        assert layer.ranked(query, params, 10) == rebuilt.ranked(query, params, 10)
        assert layer.locate(query, params, FILES_TUNED, 10) == rebuilt.locate(query, params, FILES_TUNED, 10)
    rebuilt.store.close()
    store.close()
