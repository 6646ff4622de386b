"""`SklearnHashingEmbedder` ("sklearn-hashing-v1"): scikit-learn's HashingVectorizer + the fixed projection.

The library form of the default design: word features (the same code-aware
terms as "hashing-v1") and char 3-5-grams hashed by scikit-learn's
`HashingVectorizer` (MurmurHash3, 2^18 features, sublinear tf, L2 per block),
projected to 256 dims by the same seeded sparse table as "hashing-v1"
(`projection.py`). MurmurHash3 is fixed by scikit-learn, so vectors are the
same on every machine. It is a different model from "hashing-v1" (another
hash function), so the store refuses to mix their vectors.

Kept beside the numpy embedder so the two can be compared in one run
(`bench/benchmarks/bench_embed.py`): quality on the scenarios and cost per
text. scikit-learn is imported when this embedder is built, not before.
"""
from __future__ import annotations

import numpy as np

from reference.embed.hashing import CHAR_WEIGHT, N_BUCKETS, NNZ, SEED
from reference.embed.projection import projection_table
from reference.embed.protocol import embed_input
from reference.embed.tokenize import code_terms, stem


def _analyze(text: str) -> list[str]:
    compounds, parts = code_terms(text)
    return compounds + [stem(p) for p in parts]


def _char_parts(text: str) -> str:
    return " ".join(code_terms(text)[1])


class SklearnHashingEmbedder:
    """Words and char n-grams hashed by scikit-learn, then the fixed projection to `dim`."""

    name = "sklearn-hashing-v1"

    def __init__(self, dim: int = 256) -> None:
        from sklearn.feature_extraction.text import HashingVectorizer  # heavy: only when chosen

        self.dim = dim
        if dim != 256:
            self.name = f"sklearn-hashing-v1-{dim}"
        common = dict(n_features=N_BUCKETS, alternate_sign=False, norm=None, lowercase=False)
        self._words = HashingVectorizer(analyzer=_analyze, **common)
        self._chars = HashingVectorizer(analyzer="char_wb", ngram_range=(3, 5), preprocessor=_char_parts, **common)
        self._cols, self._vals = projection_table(N_BUCKETS, dim, NNZ, SEED)

    def embed(self, texts: list[str]) -> np.ndarray:
        """(len(texts), dim) float32, rows L2-normalised (zero rows for texts without words)."""
        texts, _ = embed_input(texts, self.dim)   # a single string is a TypeError
        words = _sublinear(self._words.transform(texts))
        chars = _sublinear(self._chars.transform(texts))
        out = np.zeros((len(texts), self.dim), dtype=np.float64)
        for block, weight in ((words, 1.0), (chars, CHAR_WEIGHT)):
            coo = block.tocoo()
            contrib = (coo.data[:, None] * self._vals[coo.col]).ravel() * weight
            rows = np.repeat(coo.row, NNZ)
            np.add.at(out, (rows, self._cols[coo.col].ravel()), contrib)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return (out / np.where(norms == 0, 1.0, norms)).astype(np.float32)


def _sublinear(matrix):
    """1 + ln(tf) on the raw hashed counts, then L2 per row."""
    m = matrix.tocsr(copy=True)
    m.data = 1.0 + np.log(m.data)
    norms = np.sqrt(np.asarray(m.multiply(m).sum(axis=1)).ravel())
    norms[norms == 0] = 1.0
    return m.multiply(1.0 / norms[:, None]).tocsr()
