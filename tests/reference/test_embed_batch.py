"""hashing-v1 embeds a batch in a few numpy calls; every row is bit-identical to embedding its text alone."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.embed import HashingEmbedder

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
