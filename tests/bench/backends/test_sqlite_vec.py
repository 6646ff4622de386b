"""sqlite-vec specifics: exact cosine KNN, RRF fusion, filtered KNN, embedder check, the optional extra."""
import sys

import numpy as np
import pytest

pytest.importorskip("apsw")
pytest.importorskip("sqlite_vec")

from bench.backends import create_backend  # noqa: E402
from bench.backends.sqlite_vec.backend import rrf  # noqa: E402
from bench.backends.sqlite_vec.vec_table import EmbedderMismatch  # noqa: E402
from reference.clock import LogicalClock  # noqa: E402
from reference.embed import HashingEmbedder  # noqa: E402
from reference.telemetry import NullSink  # noqa: E402

from tests.bench.backends.bm25_model import bm25_scores  # noqa: E402

TEXTS = [
    "token refresh races when two tabs refresh at once",
    "refresh the access token before it expires",
    "invoice totals rounded with decimal at the end",
    "cache pip wheels in the ci pipeline",
    "prices are integer cents in the schema",
    "the login page flickers on refresh",
]


def opened(tmp_path, spec="sqlite-vec", name="s"):
    backend = create_backend(spec)
    backend.open(tmp_path / name, LogicalClock(1_700_000_000), NullSink())
    return backend


def cosine_ranking(docs, query):
    emb = HashingEmbedder()
    ids = list(docs)
    sims = emb.embed([docs[i] for i in ids]) @ emb.embed([query])[0]
    return sorted(zip(ids, sims.tolist()), key=lambda p: (-p[1], p[0]))


def test_knn_is_exact_cosine_of_the_hashing_vectors(tmp_path):
    b = opened(tmp_path)
    docs = {b.write_memory(t): t for t in TEXTS}
    expected = cosine_ranking(docs, "token refresh")
    hits = b.search_memories("token refresh", top_k=4)
    assert [h.id for h in hits] == [i for i, _ in expected[:4]]
    assert [h.score for h in hits] == pytest.approx([s for _, s in expected[:4]], abs=1e-5)
    b.close()


def test_rrf_by_hand():
    fused = rrf([["a", "b", "c"], ["c", "a"]])
    assert [m for m, _ in fused] == ["a", "c", "b"]
    assert dict(fused) == pytest.approx({"a": 1 / 61 + 1 / 62, "c": 1 / 63 + 1 / 61, "b": 1 / 62})


def test_rrf_option_fuses_cosine_and_bm25_ranks(tmp_path):
    b = opened(tmp_path, "sqlite-vec:rrf")
    docs = {b.write_memory(t): t for t in TEXTS}
    query = "refresh token"
    vec_rank = [i for i, _ in cosine_ranking(docs, query)]
    kw = bm25_scores(docs, ["refresh", "token"])
    kw_rank = sorted(kw, key=lambda i: (-kw[i], i))
    expected = {i: sum(1 / (60 + r.index(i) + 1) for r in (vec_rank, kw_rank) if i in r) for i in docs}
    hits = b.search_memories(query, top_k=6)
    assert {h.id: h.score for h in hits} == pytest.approx(expected)
    assert [h.id for h in hits] == sorted(expected, key=lambda i: (-expected[i], i))
    b.close()


def test_filtered_knn_searches_only_the_filtered_rows(tmp_path):
    b = opened(tmp_path)
    auth = {b.write_memory(t, context=["context:auth"]): t for t in TEXTS[:2] + TEXTS[5:]}
    b.write_memory(TEXTS[2], context=["context:billing"])
    wordless = b.write_memory("!!! ???", context=["context:auth"])
    hits = b.search_memories("refresh", context=["context:auth"], top_k=10)
    assert [h.id for h in hits[:3]] == [i for i, _ in cosine_ranking(auth, "refresh")]
    assert hits[3:] == [type(hits[0])(wordless, 0.0)]  # no vector: after the ranked ones, score 0
    assert wordless not in {h.id for h in b.search_memories("refresh", top_k=10)}
    b.close()


def test_another_embedder_is_refused_on_open(tmp_path):
    b = opened(tmp_path)
    b.write_memory(TEXTS[0])
    b.conn.execute("UPDATE vec_meta SET value = 'other-model/256' WHERE name = 'embedder'")
    b.close()
    with pytest.raises(EmbedderMismatch, match="other-model"):
        opened(tmp_path)


def test_missing_extra_is_a_clear_import_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "sqlite_vec", None)
    monkeypatch.delitem(sys.modules, "bench.backends.sqlite_vec.backend")
    with pytest.raises(ImportError, match=r"codemem-bench\[sqlite-vec\]"):
        create_backend("sqlite-vec")


def test_vectors_are_stored_as_float32_rows(tmp_path):
    b = opened(tmp_path)
    b.write_memory(TEXTS[0])
    raw = b.conn.execute("SELECT embedding FROM memories_vec").fetchone()[0]
    assert np.frombuffer(raw, dtype="<f4") == pytest.approx(HashingEmbedder().embed([TEXTS[0]])[0])
    b.close()
