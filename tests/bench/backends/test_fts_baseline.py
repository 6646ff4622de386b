"""fts-baseline specifics: bm25 scores, filtered answers, literal FTS syntax, the file on disk."""
import sqlite3

import pytest

from bench.backends import create_backend
from bench.backends.fts_baseline.memory_table import SchemaTooNew
from reference.clock import LogicalClock
from reference.errors import CorruptData
from reference.telemetry import NullSink

from tests.bench.backends.bm25_model import bm25_scores

CORPUS = [
    "alpha river stone",
    "alpha alpha lemon",
    "beta lemon stone garden",
    "gamma garden",
    "delta river river beta",
    "lemon stone garden window door",
]


@pytest.fixture
def store(tmp_path):
    backend = create_backend("fts-baseline")
    backend.open(tmp_path / "s", LogicalClock(1_700_000_000), NullSink())
    yield backend
    backend.close()


def write_all(backend, texts, **kw):
    return {backend.write_memory(t, **kw): t for t in texts}


def test_scores_are_bm25_of_the_ored_terms(store):
    docs = write_all(store, CORPUS)
    hits = store.search_memories("alpha river", top_k=10)
    expected = bm25_scores(docs, ["alpha", "river"])
    assert {h.id for h in hits} == set(expected)
    for h in hits:
        assert h.score == pytest.approx(expected[h.id], rel=1e-9)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_keyword_search_equals_unfiltered_search(store):
    write_all(store, CORPUS)
    assert store.keyword_search("lemon garden", top_k=3) == store.search_memories("lemon garden", top_k=3)


def test_a_filter_picks_the_set_and_the_query_orders_it(store):
    tagged = write_all(store, CORPUS[:4], tags=["t"])
    write_all(store, CORPUS[4:])
    hits = store.search_memories("river", tags=["t"], top_k=10)
    match = [i for i, t in tagged.items() if "river" in t]
    assert [h.id for h in hits[:1]] == match and hits[0].score > 0
    assert [h.id for h in hits[1:]] == sorted(set(tagged) - set(match))
    assert all(h.score == 0.0 for h in hits[1:])
    assert store.search_memories("river", tags=["t"], top_k=2) == hits[:2]
    assert store.search_memories("zebra", top_k=10) == []  # no filter: only matches


@pytest.mark.parametrize("query", ['"alpha unbalanced', "alpha AND", "NEAR(alpha", "col:alpha*", "-alpha", "^alpha"])
def test_fts_syntax_in_user_text_is_literal(store, query):
    docs = write_all(store, CORPUS)
    alpha = {i for i, t in docs.items() if "alpha" in t.split()}
    assert {h.id for h in store.search_memories(query, top_k=10)} >= alpha


def test_same_writes_give_the_same_bytes_on_disk(tmp_path):
    files = []
    for n in (1, 2):
        backend = create_backend("fts-baseline")
        clock = LogicalClock(1_700_000_000)
        backend.open(tmp_path / f"s{n}", clock, NullSink())
        for t in CORPUS:
            backend.write_memory(t, tags=["x"], metadata={"k": n > 0})
            clock.advance(1)
        backend.close()
        files.append((tmp_path / f"s{n}" / "fts_baseline.db").read_bytes())
    assert files[0] == files[1]


def test_the_file_is_the_documented_table(tmp_path, store):
    mid = store.write_memory("alpha note", task="task:debug", context=["context:auth"], tags=["a"],
                             symbol_keys=[2**64 - 1], metadata={"branch": "main"})
    conn = sqlite3.connect(tmp_path / "s" / "fts_baseline.db")
    row = conn.execute("SELECT id, task, insights, context, symbol_keys, text, tags, metadata, created_at "
                       "FROM memories").fetchone()
    assert row == (mid, "task:debug", "[]", '["context:auth"]', f"[{2**64 - 1}]", "alpha note", '["a"]',
                   '{"branch":"main"}', 1_700_000_000.0)
    assert conn.execute("PRAGMA user_version").fetchone() == (1,)
    conn.close()


def test_a_file_that_is_not_a_database_is_corrupt_data_and_is_left_alone(tmp_path):
    folder = tmp_path / "s"
    folder.mkdir()
    junk = b"this is not sqlite" * 100
    (folder / "fts_baseline.db").write_bytes(junk)
    with pytest.raises(CorruptData, match="fts_baseline.db"):
        create_backend("fts-baseline").open(folder, LogicalClock(0), NullSink())
    assert (folder / "fts_baseline.db").read_bytes() == junk


def test_a_newer_schema_is_refused(tmp_path):
    folder = tmp_path / "s"
    folder.mkdir()
    conn = sqlite3.connect(folder / "fts_baseline.db")
    conn.execute("PRAGMA user_version = 9")
    conn.close()
    with pytest.raises(SchemaTooNew, match="9"):
        create_backend("fts-baseline").open(folder, LogicalClock(0), NullSink())


@pytest.mark.parametrize("bad", [{"top_k": -1}, {"top_k": "3"}, {"query": 5}, {"context": "context:auth"}])
def test_bad_search_arguments_raise_value_error(store, bad):
    args = {"query": "alpha", **bad}
    with pytest.raises(ValueError):
        store.search_memories(**args)
