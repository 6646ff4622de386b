"""hashing-v1 for one text (a single write or a query) in about thirty numpy calls, bit-identical to the batch path.

For one short text numpy's per-call cost (~1 µs, 2-3 µs with cold caches) dominates, so the text is read
from its tokens' cached features (`token_features.py`: key and projection in one uint64), and sorting
them orders the features by key exactly as the batch path's sort of keys does, so counting, weighting
and the bincount see the same values in the same order as `HashingEmbedder._embed_into`:

- `1 + ln(count)` comes from a table built by the same numpy expression (`log_table`);
- each block is divided by its norm over the power-of-two factors it is later multiplied by
  (`w / (d / f)` equals `(w / d) * f` exactly when `f` is a power of two: scaling by 2^k commutes
  with rounding), so word weights are `w / (2 d)` and char weights `w / (4 d)` for hashing-v1;
- signs are ±1.0 from a 16-row table (a sign flip is exact).

The projection table is not read at all for a text whose tokens are cached.
"""
from __future__ import annotations

import functools
import math

import numpy as np

from reference.embed.token_features import FEATURE, SHIFT, TokenFeatures
from reference.embed.tokenize import compound_tokens

LOG_ENTRIES = 1 << 12   # counts tabled; a text with more features than this computes its logs directly
_LOW = bytes(8)   # below every feature (a bucket's 4 distinct columns are never all 0)
_HIGH = b"\xff" * 8   # above every feature: keys are < 2^19
# row n: the four signs whose bits (1 = negative) are n
_SIGNS = np.array([[-1.0 if n >> j & 1 else 1.0 for j in range(4)] for n in range(16)])


@functools.lru_cache(maxsize=1)
def log_table() -> np.ndarray:
    """`1 + ln(k)` for k < LOG_ENTRIES, by the batch path's own expression (read-only)."""
    with np.errstate(divide="ignore"):   # k = 0 never occurs as a count
        out = 1.0 + np.log(np.arange(LOG_ENTRIES).astype(np.float64))
    out.setflags(write=False)
    return out


class SingleText:
    """`embed(text, out)`: one text into a float32 row, as `HashingEmbedder` embeds it."""

    def __init__(self, features: TokenFeatures, n_buckets: int, word_factor: float, char_factor: float) -> None:
        for f in (word_factor, char_factor):
            if math.frexp(f)[0] != 0.5:
                raise ValueError(f"block factors must be powers of two (exact division), got {f}")
        self._word_div, self._char_div = 1.0 / word_factor, 1.0 / char_factor
        self._cut = np.uint64(n_buckets << SHIFT)   # char keys (block 1) from here
        self._log = log_table()
        self._features = features.of

    def embed(self, text: str, out: np.ndarray) -> None:
        """Write `text`'s unit vector into `out` (float32, zeroed by the caller); a text without features
        leaves it zero."""
        tokens = compound_tokens(text)
        if not tokens:
            return
        k = np.sort(np.frombuffer(b"".join([_LOW, *self._features(tokens), _HIGH]), dtype=FEATURE))
        n = k.size - 2
        if not n:
            return
        # the sentinels bound every run: ends[0] is the low one, ends[j] the last index of distinct value j
        ends = np.flatnonzero(k[1:] != k[:-1])
        counts = ends[1:] - ends[:-1]
        u = k[ends[1:]]
        w = self._log[counts] if n < LOG_ENTRIES else 1.0 + np.log(counts.astype(np.float64))
        cut = int(np.searchsorted(u, self._cut))
        sq = w * w
        if cut:   # each block's own pairwise sum, as `(part * part).sum()` gives it
            w[:cut] /= math.sqrt(np.add.reduce(sq[:cut])) * self._word_div
        if cut < w.size:
            w[cut:] /= math.sqrt(np.add.reduce(sq[cut:])) * self._char_div
        b = u.view(np.uint8).reshape(-1, 8)   # little-endian bytes: 0-3 the columns, 4 the sign bits
        signs = _SIGNS[b[:, 4]]
        signs *= w[:, None]
        vec = np.bincount(b[:, :4].ravel(), weights=signs.ravel(), minlength=out.size)
        norm = math.sqrt(np.add.reduce(vec * vec))
        if norm > 0:
            np.divide(vec, norm, out=out, casting="unsafe")
