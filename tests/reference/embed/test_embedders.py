"""Embedders: the hashing embedder's properties, tokenisation, registry, optional sentence model."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from reference.embed import (Embedder, EmbedderUnavailable, HashingEmbedder, SentenceTransformerEmbedder,
                             UnknownEmbedder, embedder_names, get_embedder)
from reference.embed.projection import projection_table
from reference.embed.tokenize import code_tokens, word_parts


@pytest.fixture(scope="module")
def emb() -> HashingEmbedder:
    return HashingEmbedder()


def cos(a, b) -> float:
    return float(np.dot(a, b))


def test_shape_dtype_and_unit_norm(emb):
    out = emb.embed(["alpha beta", "gamma", "x"])
    assert out.shape == (3, 256) and out.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, rtol=1e-5)
    assert isinstance(emb, Embedder) and emb.name == "hashing-v1" and emb.dim == 256


def test_texts_without_words_embed_to_zero(emb):
    out = emb.embed(["", "  !!! ---  "])
    assert not out.any()
    assert emb.embed([]).shape == (0, 256)
    with pytest.raises(TypeError):
        emb.embed("a single string")


def test_identical_text_has_cosine_one_and_is_deterministic(emb):
    a = emb.embed(["the auth token refresh has a race"])[0]
    b = HashingEmbedder().embed(["the auth token refresh has a race"])[0]
    assert a.tobytes() == b.tobytes()
    assert cos(a, b) == pytest.approx(1.0, abs=1e-6)


def test_same_vector_in_a_fresh_process(emb):
    """Hash seeds differ between processes; the vector must not."""
    code = ("from reference.embed import HashingEmbedder;import sys;"
            "sys.stdout.write(HashingEmbedder().embed(['billing rounds with Decimal'])[0].tobytes().hex())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONHASHSEED": "123", "PATH": ""}).stdout
    assert bytes.fromhex(out) == emb.embed(["billing rounds with Decimal"])[0].tobytes()


@pytest.mark.parametrize("query,related,unrelated", [
    ("token refresh race", "the auth token refresh logic has a race condition", "invoices are rounded half even"),
    ("getUserName", "def get_user_name(user): return user.name", "class BillingPlan: pass"),
    ("src/auth/session.py", "session handling lives in auth/session.py", "chart colours for the dashboard"),
    ("refreshing tokens", "refresh the token before expiry", "the database migration adds a column"),
])
def test_shared_words_score_higher_than_unrelated_text(emb, query, related, unrelated):
    q, r, u = emb.embed([query, related, unrelated])
    assert cos(q, r) > cos(q, u) + 0.2


def test_word_parts_split_snake_camel_dotted_and_paths():
    assert word_parts("get_user_name") == ["get", "user", "name"]
    assert word_parts("parseHTTPResponse") == ["parse", "http", "response"]
    assert word_parts("os.path.join") == ["os", "path", "join"]
    assert word_parts("src/auth/token-store.py") == ["src", "auth", "token", "store", "py"]
    assert word_parts("über") == ["über"]


def test_code_tokens_keep_compounds_and_drop_stop_words():
    assert code_tokens("the getUser of os.path") == ["getuser", "os.path", "get", "user", "os", "path"]


def test_projection_table_has_distinct_columns_and_fixed_values():
    cols, vals = projection_table(1 << 12, 256, 4, 7)
    assert cols.shape == (1 << 12, 4)
    assert all(len(set(row)) == 4 for row in cols.tolist())
    assert set(np.round(vals.ravel(), 6).tolist()) == {-0.5, 0.5}
    cols2, vals2 = projection_table.__wrapped__(1 << 12, 256, 4, 7)  # rebuilt, not cached
    assert np.array_equal(cols, cols2) and np.array_equal(vals, vals2)


def test_registry():
    assert "hashing-v1" in embedder_names()
    assert isinstance(get_embedder("hashing-v1"), HashingEmbedder)
    with pytest.raises(UnknownEmbedder, match="hashing-v1"):
        get_embedder("nope")


def test_sentence_transformer_needs_a_local_directory(tmp_path):
    with pytest.raises(EmbedderUnavailable, match="not a local directory"):
        SentenceTransformerEmbedder(tmp_path / "missing-model")


def test_sentence_transformer_loads_from_a_local_path(tmp_path):
    pytest.importorskip("sentence_transformers")
    import os
    model_dir = os.environ.get("CODEMEM_ST_MODEL")
    if not model_dir:
        pytest.skip("set CODEMEM_ST_MODEL to a local sentence-transformers model directory")
    e = SentenceTransformerEmbedder(model_dir)
    out = e.embed(["token refresh race", "token refresh race", "billing"])
    assert out.shape == (3, e.dim)
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, rtol=1e-4)
    assert cos(out[0], out[1]) == pytest.approx(1.0, abs=1e-5)


@pytest.mark.parametrize("word,expected", [
    ("caches", "cach"), ("cached", "cach"), ("caching", "cach"), ("cache", "cach"),
    ("refreshing", "refresh"), ("queries", "query"), ("classes", "class"), ("running", "run"),
    ("status", "status"), ("über", "über"), ("id", "id"), ("v2s", "v2s"),
])
def test_light_stemmer(word, expected):
    from reference.embed.tokenize import stem
    assert stem(word) == expected


def test_embed_input_guard():
    from reference.embed.protocol import embed_input
    with pytest.raises(TypeError, match="not a single string"):
        embed_input("one text", 8)
    texts, empty = embed_input([], 8)
    assert texts == [] and empty.shape == (0, 8) and empty.dtype == np.float32
    assert embed_input(("a", "b"), 8) == (["a", "b"], None)
