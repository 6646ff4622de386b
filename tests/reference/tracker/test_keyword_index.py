"""The numpy bm25 index returns FTS5's own ranking (same keys, same scores to the bit) through writes,
updates, deletes, other connections' commits and rollbacks."""
from __future__ import annotations

import sqlite3

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference.clock import LogicalClock
from reference.store import MemoryStore
from reference.tracker import fts_match
from reference.tracker.fts.records import row_sizes, sizes_of, totals
from reference.tracker.fts.topk import ranked_matches
from reference.tracker.keyword.bm25 import phrases_of, top as _top

# stems that collide (running / runs / ran), snake_case (a two-token phrase), accents, a word repeated
WORDS = ["auth", "token", "refresh", "cache", "running", "runs", "run", "ran", "foo_bar", "foo", "bar",
         "café", "Cafe", "naïve", "x1", "deploy", "deploy", "the"]
TAGS = ["p1", "p2", "auth"]

texts = st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map(" ".join)
ops = st.lists(st.one_of(
    st.tuples(st.just("write"), texts, st.sampled_from(TAGS)),
    st.tuples(st.just("batch"), st.lists(texts, min_size=1, max_size=5), st.sampled_from(TAGS)),
    st.tuples(st.just("delete"), st.integers(0, 1000), st.just("")),
    st.tuples(st.just("update"), st.integers(0, 1000), st.just("")),
    st.tuples(st.just("query"), st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join),
              st.sampled_from([None, "p1", "auth"])),
), min_size=1, max_size=30)


def _same(store: MemoryStore, query: str, tag: str | None) -> None:
    """The index answers (never declines) and agrees with FTS5 for k = 1, 3, 10."""
    conn = store.tracker.conn()
    store.memories.keyword_index.min_rows = 0  # small stores: FTS5 answers unless told otherwise
    match = fts_match(query)
    allowed = None if tag is None else store.memories.candidates(store.memories.filter(tags=[tag]))
    for k in (1, 3, 10):
        fast = store.memories.keyword_index.ranked(conn, match, k, allowed)
        assert fast is not None, query
        assert sorted(fast) == sorted(ranked_matches(conn, match, k, allowed)), (query, tag, k)
        assert [s for _, s in fast] == sorted((s for _, s in fast), reverse=True)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops)
def test_index_ranks_as_fts5_through_changes(tmp_path_factory, steps):
    clock = LogicalClock(1_700_000_000.0)
    store = MemoryStore.open(tmp_path_factory.mktemp("kw"), clock=clock)
    ids: list[str] = []
    _same(store, "auth", None)  # built on an empty store, then maintained by notes
    for op, arg, extra in steps:
        clock.advance(1)
        if op == "write":
            ids.append(store.write_memory(arg, tags=[extra]).id)
        elif op == "batch":
            ids += [e.id for e in store.write_memories([{"text": t, "tags": [extra]} for t in arg])]
        elif op == "delete" and ids:
            store.delete_memory(ids.pop(arg % len(ids)))
        elif op == "update" and ids:
            store.update_metadata(ids[arg % len(ids)], {"n": arg})
        elif op == "query":
            _same(store, arg, extra)
    for q in ("auth token", "running foo_bar", "café naïve", "the deploy run"):
        _same(store, q, None)
        _same(store, q, "p1")
    store.close()


def test_other_connections_commit_and_rollback_rebuild(tmp_path):
    clock = LogicalClock(1_700_000_000.0)
    a = MemoryStore.open(tmp_path, clock=clock)
    for i in range(20):
        a.write_memory(f"auth token number{i}", tags=["p1"])
    _same(a, "auth number3", None)
    b = MemoryStore.open(tmp_path, clock=clock)  # another writer: a learns of it from the memories revision
    b.write_memory("auth auth auth number3", tags=["p2"])
    b.delete_memory(a.memories.list(a.memories.filter(), limit=1)[0].id)
    _same(a, "auth number3", None)
    a.memories.keyword_index.reset()  # what the writer does on a rollback
    _same(a, "auth number3", "p1")
    b.close()
    a.close()


def test_declines_inside_a_transaction_and_for_other_syntax(tmp_path):
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_700_000_000.0))
    store.write_memory("auth token")
    idx, conn = store.memories.keyword_index, store.tracker.conn()
    assert idx.ranked(conn, '"auth"', 5) is None  # below min_rows
    idx.min_rows = 0
    assert idx.ranked(conn, '"auth"', 5) is not None
    assert idx.ranked(conn, "auth*", 5) is None  # prefix syntax: FTS5's
    assert idx.ranked(conn, '"_"', 5) is None  # a phrase without tokens
    with store.tracker.tx() as c:
        assert idx.ranked(c, '"auth"', 5) is None  # FTS5 ranks with totals not yet written
    store.close()


def test_phrases_of_reads_fts_match_output():
    assert phrases_of(fts_match('say "hi" to foo_bar')) == ["say", "hi", "to", "foo_bar"]
    assert phrases_of('"a""b" OR "c"') == ['a"b', "c"]
    assert phrases_of('"a" AND "b"') is None


def test_fts_records_read_fts5_bookkeeping():
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("CREATE VIRTUAL TABLE memories_fts USING fts5(text, tags, content='')")
    docs = {-5: ("a " * 300, "x y"), 7: ("b c", ""), 9: ("q " * 20_000, "z"), 11: ("", "")}
    for rowid, (text, tags) in docs.items():
        conn.execute("INSERT INTO memories_fts(rowid, text, tags) VALUES (?, ?, ?)", (rowid, text, tags))
    ids, sizes = sizes_of(conn)
    assert ids.tolist() == [-5, 7, 9, 11]
    assert sizes.tolist() == [302.0, 2.0, 20_001.0, 0.0]  # multi-byte varints
    assert totals(conn) == (4, 20_305)
    assert sizes_of(conn, [9, 7])[1].tolist() == [2.0, 20_001.0]
    assert row_sizes([]).size == 0


def test_top_k_keeps_ties_with_the_kth():
    kh = np.array([5, 3, 9, 1], dtype=np.uint64)
    sc = np.array([1.0, 2.0, 1.0, 0.5])
    assert _top(kh, sc, 2) == [(3, 2.0), (5, 1.0), (9, 1.0)]
    assert _top(kh, sc, 5) == [(3, 2.0), (5, 1.0), (9, 1.0), (1, 0.5)]


def _spy(monkeypatch, module, name: str) -> list:
    """Record the calls of `module.name` (what it returned), calling through."""
    calls: list = []
    real = getattr(module, name)

    def spy(*a):
        out = real(*a)
        calls.append(out)
        return out

    monkeypatch.setattr(module, name, spy)
    return calls


def test_filtered_ranking_agrees_on_both_paths(tmp_path, monkeypatch):
    """A filter much smaller than the postings looks its rows up (`score_ids`); a larger one takes the
    dense path. Both agree with FTS5, also for a filter repeated after a write (its cached ids)."""
    import reference.tracker.keyword.index as ki
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_700_000_000.0))
    store.write_memories([{"text": f"auth {'token ' * (i % 4)}cache{i % 7}",
                           "tags": ["p2" if i % 97 == 0 else "p3" if i % 9 == 0 else "p1"]} for i in range(600)])
    lookups = _spy(monkeypatch, ki, "score_ids")
    dense = _spy(monkeypatch, ki, "dense_scores")
    _same(store, "auth token cache3", "p2")  # 7 of 600 allowed: lookup path
    assert lookups and not dense
    _same(store, "auth token cache3", "p1")  # most allowed: dense path
    assert dense
    _same(store, "auth token cache3", "auth")  # no row carries it: empty
    store.write_memory("auth auth token cache3 fresh", tags=["p1"])  # new row and totals: cached ids dropped
    _same(store, "auth token cache3 fresh", "p1")
    store.delete_memory(store.memories.list(store.memories.filter(tags=["p1"]), limit=1)[0].id)
    _same(store, "auth token cache3 fresh", "p1")
    store.close()


def test_dense_path_bound_keeps_ties_and_rare_phrases(tmp_path, monkeypatch):
    """Without a filter every matching row is scored at once and only rows at or above a lower bound
    of the k-th are ranked: equal rows tied with the k-th, and phrases with fewer rows than k, stay
    exactly FTS5's answer."""
    import reference.tracker.keyword.index as ki
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_700_000_000.0))
    # many identical rows (ties at every k), a word in few rows, a word in every row
    store.write_memories([{"text": "alpha beta" if i % 3 else f"alpha gamma{i % 4} beta"} for i in range(450)]
                         + [{"text": "alpha rare"}, {"text": "rare rare beta"}])
    dense = _spy(monkeypatch, ki, "dense_scores")
    for q in ("alpha beta", "alpha gamma1", "rare", "rare gamma2 beta", "gamma3 gamma1"):
        _same(store, q, None)
    assert dense
    store.close()


@pytest.mark.parametrize("query", ["auth", "auth token cache"])
def test_store_keyword_search_uses_the_index_and_agrees(tmp_path, query):
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_700_000_000.0))
    for i in range(30):
        store.write_memory(f"{'auth ' * (i % 3)}token cache{i % 4}", tags=["p1" if i % 2 else "p2"])
    flt = store.memories.filter(tags=["p1"])
    store.memories.keyword_index.min_rows = 0
    hits = store.memories.keyword(query, flt, 5)
    conn = store.tracker.conn()
    ref = ranked_matches(conn, fts_match(query), 5, store.memories.candidates(flt))
    want = sorted(((store.memories.tracker.memories.ids_of(conn, [h])[h], s) for h, s in ref),
                  key=lambda x: (-x[1], x[0]))[:5]
    assert [(h.id, h.score) for h in hits] == want
    assert store.memories.keyword_index._built  # the index answered
    store.close()


def test_maxscore_pruning_returns_fts5s_top_k(tmp_path, monkeypatch):
    """A rare word settles the top k: only its rows are scored (pruned), and the answer is FTS5's."""
    import reference.tracker.keyword.index as ki
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_700_000_000.0))
    store.write_memories([{"text": f"common filler words {'rare ' * (i % 3) if i % 97 == 0 else ''}n{i % 5}"}
                          for i in range(700)])
    taken = _spy(monkeypatch, ki, "pruned")
    for q in ("rare common filler", "filler rare n1", "rare"):
        _same(store, q, None)
    assert any(out is not None for out in taken)
    store.close()


def test_filter_ids_are_kept_until_rows_change(tmp_path):
    """A repeated filter reuses its internal ids; a write or a delete in between makes them fresh."""
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_700_000_000.0))
    store.write_memories([{"text": f"auth n{i}", "tags": ["p1" if i % 3 else "p2"]} for i in range(50)])
    idx, conn = store.memories.keyword_index, store.tracker.conn()
    idx.min_rows = 0
    allowed = store.memories.candidates(store.memories.filter(tags=["p1"]))
    idx.ranked(conn, fts_match("auth"), 3, allowed)
    first = idx._ids_among(allowed)
    assert idx._ids_among(allowed.copy()) is first  # equal keys: the kept ids
    assert idx._ids_among(allowed[1:]) is not first  # other keys: computed afresh
    store.write_memory("auth fresh", tags=["p1"])
    allowed = store.memories.candidates(store.memories.filter(tags=["p1"]))
    _same(store, "auth fresh", "p1")
    assert np.array_equal(idx._ids_among(allowed), idx._ids_of_hashes(allowed))
    store.delete_memory(store.memories.list(store.memories.filter(tags=["p1"]), limit=1)[0].id)
    _same(store, "auth fresh", "p1")
    store.close()
