"""hashing-v1 embeds a batch in a few numpy calls; every row is bit-identical to embedding its text alone."""
from __future__ import annotations

import zlib

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.embed import HashingEmbedder, hashing

EMBEDDER = HashingEmbedder()
TEXTS = st.lists(st.one_of(
    st.text(max_size=80),
    st.lists(st.sampled_from("getUserName src/auth/token_store.py caching cached the a of x_y 2025-01-02 "
                             "café 東京 refresh tokens !!! --".split()), max_size=12).map(" ".join)),
    min_size=1, max_size=12)


@settings(max_examples=60, deadline=None)
@given(texts=TEXTS)
def test_batch_rows_are_the_per_text_definition_bit_for_bit(texts):
    batch = EMBEDDER.embed(texts)
    alone = np.stack([EMBEDDER._embed_one(t) for t in texts])
    assert batch.dtype == np.float32 and batch.shape == (len(texts), EMBEDDER.dim)
    assert np.array_equal(batch.view(np.uint32), alone.view(np.uint32))
    for text, row in zip(texts, batch):
        assert np.array_equal(EMBEDDER.embed([text])[0].view(np.uint32), row.view(np.uint32))


def test_texts_without_words_embed_to_zero_rows_beside_others():
    out = EMBEDDER.embed(["", "token refresh", "!!!", "   "])
    assert not out[0].any() and not out[2].any() and not out[3].any()
    assert abs(float(np.linalg.norm(out[1])) - 1.0) < 1e-6


@settings(max_examples=30, deadline=None)
@given(texts=TEXTS)
def test_a_batch_split_into_passes_gives_the_same_rows(texts):
    """Batches longer than `TEXTS_PER_PASS` are embedded in passes (keys must fit 32 bits): same bits."""
    from reference.embed import hashing
    whole = EMBEDDER.embed(texts)
    saved, hashing.TEXTS_PER_PASS = hashing.TEXTS_PER_PASS, 3
    try:
        passes = EMBEDDER.embed(texts)
    finally:
        hashing.TEXTS_PER_PASS = saved
    assert np.array_equal(whole.view(np.uint32), passes.view(np.uint32))


def test_vectors_of_a_fixed_corpus_are_the_ones_hashing_v1_always_gave():
    """The sha256 of 3,000 vectors (compounds, paths, camelCase, stop words, non-ASCII, empty texts) as the
    per-token-keyed batch path's predecessor computed them (commit fc79446): stored vectors stay valid."""
    import hashlib
    import random
    rng = random.Random(7)
    words = ("getUserName src/auth/token_store.py caching cached the a of x_y 2025-01-02 café 東京 refresh tokens "
             "!!! -- HTTPServerError foo.bar.baz a/b/c.py __init__ TTL redis_cache CamelCaseWord 12345 ünïcödé "
             "i18n l10n").split()
    texts = [" ".join(rng.choices(words, k=rng.randint(0, 30))) for _ in range(3000)]
    assert hashlib.sha256(EMBEDDER.embed(texts).tobytes()).hexdigest() == \
        "15ab08778bbbc89e872dbf939e41bc3b48ce43311d22d25a9bb9a69fe734434e"
    assert hashlib.sha256(b"".join(EMBEDDER.embed([t]).tobytes() for t in texts[:300])).hexdigest() == \
        "a035a33974c81c916f0b5e0f2c917af13a336fa95feb747a1944602f021c17eb"


@settings(max_examples=200, deadline=None)
@given(part=st.one_of(st.text(max_size=12), st.sampled_from(["", "a", "ab", "token", "café", "東京", "x_y.z"])))
def test_gram_buckets_are_the_crc_of_each_prefixed_gram(part):
    """The n-gram buckets (CRC-32 continued from the b"c\\0" prefix, ASCII grams sliced from the encoded
    part) are the definition's: CRC-32 of b"c\\0" + the gram's UTF-8, mod the bucket count."""
    padded = f" {part} "
    grams = [padded[i: i + n] for n in hashing.NGRAMS for i in range(len(padded) - n + 1)]
    want = [zlib.crc32(b"c\0" + g.encode("utf-8")) % hashing.N_BUCKETS for g in grams]
    hashing._gram_buckets.cache_clear()
    assert hashing._gram_buckets(part).tolist() == want
