"""chroma specifics: our vectors and no others, filters as `where`, records, no network, the optional extra."""
import socket
import sys

import pytest

pytest.importorskip("chromadb")

from bench.backends import Hit, create_backend  # noqa: E402
from reference.clock import LogicalClock  # noqa: E402
from reference.embed import HashingEmbedder  # noqa: E402
from reference.telemetry import NullSink  # noqa: E402

TEXTS = [
    "token refresh races when two tabs refresh at once",
    "refresh the access token before it expires",
    "invoice totals rounded with decimal at the end",
    "cache pip wheels in the ci pipeline",
    "prices are integer cents in the schema",
]


@pytest.fixture
def store(tmp_path):
    backend = create_backend("chroma")
    backend.open(tmp_path / "s", LogicalClock(1_700_000_000.125), NullSink())
    yield backend
    backend.close()


def test_scores_are_cosine_of_the_hashing_vectors(store):
    docs = {store.write_memory(t): t for t in TEXTS}
    emb = HashingEmbedder()
    ids = list(docs)
    sims = emb.embed([docs[i] for i in ids]) @ emb.embed(["access token refresh"])[0]
    expected = sorted(zip(ids, sims.tolist()), key=lambda p: (-p[1], p[0]))
    hits = store.search_memories("access token refresh", top_k=5)
    assert [h.id for h in hits] == [i for i, _ in expected]
    assert [h.score for h in hits] == pytest.approx([s for _, s in expected], abs=1e-5)


def test_the_collection_embeds_with_our_function_only(store):
    from bench.backends.chroma.embedding import HashingEmbeddingFunction

    assert isinstance(store.col._embedding_function, HashingEmbeddingFunction)
    assert store.col.configuration["hnsw"]["space"] == "cosine"


def test_record_round_trip(store):
    mid = store.write_memory("note", task="task:debug", insights=["insight:pitfall"], context=["context:auth"],
                             symbol_keys=[2**64 - 1, 7], tags=["a", "b"], metadata={"branch": "main", "n": [1, {"x": None}]})
    bare = store.write_memory("bare note")
    rec = store.get_memory(mid)
    assert (rec["task"], rec["insights"], rec["context"], rec["symbol_keys"], rec["tags"], rec["metadata"]) == (
        "task:debug", ["insight:pitfall"], ["context:auth"], [2**64 - 1, 7], ["a", "b"],
        {"branch": "main", "n": [1, {"x": None}]})
    assert rec["created_at"] == 1_700_000_000.125
    bare_rec = store.get_memory(bare)
    assert (bare_rec["task"], bare_rec["context"], bare_rec["tags"], bare_rec["metadata"]) == (None, [], [], {})


def test_filters_become_where_clauses(store):
    a = store.write_memory(TEXTS[0], task="task:debug", context=["context:auth"], tags=["x"])
    b = store.write_memory(TEXTS[1], task="task:debug", context=["context:auth", "context:api"])
    c = store.write_memory(TEXTS[2], task="task:bugfix", context=["context:api"], tags=["x"])
    assert {h.id for h in store.search_memories("token", context=["context:auth"])} == {a, b}
    assert {h.id for h in store.search_memories("token", context=["context:auth", "context:api"])} == {b}
    assert {h.id for h in store.search_memories("token", task="task:debug", tags=["x"])} == {a}
    assert {r["id"] for r in store.list_memories(context=["context:api"])} == {b, c}


def test_wordless_texts_are_left_out_of_ranked_answers(store):
    ranked = store.write_memory(TEXTS[0], tags=["t"])
    wordless = store.write_memory("!!! ???", tags=["t"])
    assert {h.id for h in store.search_memories("token refresh", top_k=10)} == {ranked}
    hits = store.search_memories("token refresh", tags=["t"], top_k=10)
    assert hits[0].id == ranked and hits[1:] == [Hit(wordless, 0.0)]


def test_nothing_touches_the_network(tmp_path, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError(f"network access attempted: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    backend = create_backend("chroma")
    clock = LogicalClock(1_700_000_000)
    backend.open(tmp_path / "n", clock, NullSink())
    ids = [backend.write_memory(t) for t in TEXTS]
    assert backend.search_memories("pip wheels", top_k=1)[0].id == ids[3]
    assert backend.delete_memory(ids[3])
    backend.close()


def test_missing_extra_is_a_clear_import_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "chromadb", None)
    monkeypatch.delitem(sys.modules, "bench.backends.chroma.backend", raising=False)
    with pytest.raises(ImportError, match=r"codemem-bench\[chroma\]"):
        create_backend("chroma")
