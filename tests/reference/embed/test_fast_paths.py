"""hashing-v1's fast paths (cached token features, the single-text path, the batch path) against the
per-text definition `_embed_one`, bit for bit, whatever the caches hold."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.embed import HashingEmbedder, hashing_single, token_features
from reference.embed.hashing_single import log_table

WORDS = ("getUserName src/auth/token_store.py caching cached the a of x_y 2025-01-02 café 東京 refresh tokens "
         "!!! -- HTTPServerError foo.bar.baz __init__ TTL redis_cache 12345 ünïcödé i18n ß İstanbul ǅemal").split()
TEXT = st.one_of(st.text(max_size=120), st.lists(st.sampled_from(WORDS), max_size=40).map(" ".join))


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.float32).view(np.uint32)


@settings(max_examples=150, deadline=None)
@given(texts=st.lists(TEXT, min_size=1, max_size=6))
def test_single_text_path_is_the_definition_bit_for_bit(texts):
    e = HashingEmbedder()
    for text in texts + texts:   # the second time every token is cached
        assert np.array_equal(_bits(e.embed([text])[0]), _bits(e._embed_one(text)))


@settings(max_examples=40, deadline=None)
@given(texts=st.lists(TEXT, min_size=2, max_size=10))
def test_the_cache_state_never_changes_a_vector(texts):
    """A warm embedder (single texts first, then the batch) and a fresh one (batch first) agree."""
    warm, fresh = HashingEmbedder(), HashingEmbedder()
    singles = np.stack([warm.embed([t])[0] for t in texts])
    assert np.array_equal(_bits(warm.embed(texts)), _bits(fresh.embed(texts)))
    assert np.array_equal(_bits(singles), _bits(fresh.embed(texts)))


def test_tokens_past_the_cache_bound_are_dropped_and_vectors_stay_the_same(monkeypatch):
    monkeypatch.setattr(token_features, "TOKENS_CACHED", 16)
    e = HashingEmbedder()
    texts = [f"word{i} other{i % 7} shared_token" for i in range(60)]
    for text in texts:
        assert np.array_equal(_bits(e.embed([text])[0]), _bits(e._embed_one(text)))
        assert len(e._features._cache) <= 16
    assert np.array_equal(_bits(e.embed(texts)), _bits(np.stack([e._embed_one(t) for t in texts])))


def test_a_text_with_more_features_than_the_log_table_computes_its_logs():
    e = HashingEmbedder()
    text = "refresh_token " * 200 + " ".join(f"w{i}" for i in range(300))
    assert len(e._features.of(["refresh_token"])[0]) // 8 * 200 > hashing_single.LOG_ENTRIES   # 8 bytes a feature
    assert np.array_equal(_bits(e.embed([text])[0]), _bits(e._embed_one(text)))


def test_log_table_is_the_direct_expression_elementwise():
    table = log_table()
    counts = np.array([1, 2, 3, 7, 100, hashing_single.LOG_ENTRIES - 1], dtype=np.int64)
    assert np.array_equal(table[counts], 1.0 + np.log(counts.astype(np.float64)))
    assert not table.flags.writeable


def test_packed_features_hold_each_buckets_columns_and_signs():
    e = HashingEmbedder()
    packed = token_features.packed_projection(e._cols_small, e._signs)
    buckets = np.array([0, 1, 12345, (1 << 18) - 1])
    raw = packed[buckets].astype("<u8").view(np.uint8).reshape(-1, 8)
    assert np.array_equal(raw[:, :4], e._cols_small[buckets])
    signs = np.where((raw[:, 4:5] >> np.arange(4)) & 1, -1, 1)
    assert np.array_equal(signs, e._signs[buckets])
    assert not raw[:, 5:].any()


def test_an_embedder_of_another_dimension_has_no_fast_path_and_matches_its_definition():
    e = HashingEmbedder(dim=512)
    assert e._single is None and e._features is None
    for text in ["getUserName in src/auth/token.py", "", "東京 café"]:
        assert np.array_equal(_bits(e.embed([text])[0]), _bits(e._embed_one(text)))


def test_block_factors_must_be_powers_of_two():
    e = HashingEmbedder()
    with pytest.raises(ValueError, match="powers of two"):
        hashing_single.SingleText(e._features, 1 << 18, 0.5, 0.3)
