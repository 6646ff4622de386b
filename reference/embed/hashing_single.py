"""hashing-v1 for one text (a single write or a query) in about twenty numpy calls, bit-identical to the batch path.

For one short text numpy's per-call cost (~1 µs) and the projection table's random reads dominate, so
each token's features are cached with their projection already attached: one uint64 per feature,

    key << 36 | sign bits << 32 | the bucket's 4 output columns (one byte each)

(`key` is `block << 18 | bucket`, as `hashing._token_keys` gives it). Sorting these orders the
features by key exactly as sorting the keys does (equal keys carry equal low bits), so counting,
weighting and the bincount see the same values in the same order as `HashingEmbedder._embed_into`:

- `1 + ln(count)` comes from a table built by the same numpy expression (`log_table`);
- each block is divided by its norm over the power-of-two factors it is later multiplied by
  (`w / (d / f)` equals `(w / d) * f` exactly when `f` is a power of two: scaling by 2^k commutes
  with rounding), so word weights are `w / (2 d)` and char weights `w / (4 d)` for hashing-v1;
- signs are ±1.0 from a 16-row table (a sign flip is exact).

The projection table is not read at all for a text whose tokens are cached.
"""
from __future__ import annotations

import functools
import itertools
import math
import threading
from collections.abc import Callable

import numpy as np

from reference.embed.tokenize import compound_tokens

LOG_ENTRIES = 1 << 12   # counts tabled; a text with more features than this computes its logs directly
TOKENS_CACHED = 1 << 16
_SENTINEL = np.array([np.iinfo(np.uint64).max], dtype=np.uint64)   # sorts last: real values are < 2^55
_U32, _U36 = np.uint64(32), np.uint64(36)
_LOW32, _NIBBLE = np.uint64(0xFFFFFFFF), np.uint64(15)
# row n: the four signs whose bits (1 = negative) are n
_SIGNS = np.array([[-1.0 if n >> j & 1 else 1.0 for j in range(4)] for n in range(16)])


@functools.lru_cache(maxsize=1)
def log_table() -> np.ndarray:
    """`1 + ln(k)` for k < LOG_ENTRIES, by the batch path's own expression (read-only)."""
    with np.errstate(divide="ignore"):   # k = 0 never occurs as a count
        out = 1.0 + np.log(np.arange(LOG_ENTRIES).astype(np.float64))
    out.setflags(write=False)
    return out


def packed_projection(cols: np.ndarray, signs: np.ndarray) -> np.ndarray:
    """Per bucket, its 4 columns (bytes 0-3) and sign bits (bits 32-35, 1 = negative) as one uint64."""
    if cols.shape[1] != 4 or int(cols.max()) > 255:
        raise ValueError("the packed projection needs 4 columns per bucket, each below 256")
    low = np.ascontiguousarray(cols, dtype=np.uint8).view(np.uint32).reshape(-1).astype(np.uint64)
    bits = ((signs < 0).astype(np.uint64) << np.arange(4, dtype=np.uint64)).sum(axis=1, dtype=np.uint64)
    out = low | (bits << _U32)
    out.setflags(write=False)
    return out


class SingleText:
    """`embed(text, out)`: one text into a float32 row, as `HashingEmbedder` embeds it."""

    def __init__(self, token_keys: Callable[[str], np.ndarray], packed: np.ndarray, n_buckets: int,
                 word_factor: float, char_factor: float) -> None:
        for f in (word_factor, char_factor):
            if math.frexp(f)[0] != 0.5:
                raise ValueError(f"block factors must be powers of two (exact division), got {f}")
        self._word_div, self._char_div = 1.0 / word_factor, 1.0 / char_factor
        self._cut = np.uint64(n_buckets) << _U36   # char keys (block 1) from here
        self._mask = np.uint64(n_buckets - 1)
        self._log = log_table()
        self._token_keys, self._packed = token_keys, packed
        self._cache: dict[str, np.ndarray] = {}   # token -> its features (bounded, see `_features`)
        self._lock = threading.Lock()

    def _features(self, tokens: list[str]) -> list[np.ndarray]:
        """Each token's features: cached ones as they are, the others computed in one go (about five numpy
        calls for all of a text's new tokens, not one set per token) and cached. Past `TOKENS_CACHED`
        tokens the oldest quarter is dropped (first in, first out)."""
        get = self._cache.get
        out = [get(raw) for raw in tokens]
        missing = [i for i, got in enumerate(out) if got is None]
        if missing:
            keys = [self._token_keys(tokens[i]) for i in missing]
            flat = np.concatenate(keys).astype(np.uint64)
            flat = (flat << _U36) | self._packed[flat & self._mask]
            flat.setflags(write=False)
            stop = 0
            for i, k in zip(missing, keys):
                start, stop = stop, stop + k.size
                out[i] = self._cache[tokens[i]] = flat[start:stop]
            if len(self._cache) > TOKENS_CACHED:
                self._evict()
        return out

    def _evict(self) -> None:
        with self._lock:   # another thread may be evicting too: pop with a default, never a KeyError
            for raw in list(itertools.islice(self._cache, max(0, len(self._cache) - TOKENS_CACHED * 3 // 4))):
                self._cache.pop(raw, None)

    def embed(self, text: str, out: np.ndarray) -> None:
        """Write `text`'s unit vector into `out` (float32, zeroed by the caller); a text without features
        leaves it zero."""
        tokens = compound_tokens(text)
        if not tokens:
            return
        arrays = self._features(tokens)
        arrays.append(_SENTINEL)
        k = np.concatenate(arrays)
        n = k.size - 1
        if not n:
            return
        k.sort()
        first = np.empty(n + 1, dtype=bool)   # first[i]: k[i] starts a run (the sentinel closes the last)
        first[0] = True
        np.not_equal(k[1:], k[:-1], out=first[1:])
        starts = np.flatnonzero(first)
        counts = starts[1:] - starts[:-1]
        u = k[starts[:-1]]
        w = self._log[counts] if n < LOG_ENTRIES else 1.0 + np.log(counts.astype(np.float64))
        cut = int(np.searchsorted(u, self._cut))
        sq = w * w
        if cut:   # each block's own pairwise sum, as `(part * part).sum()` gives it
            w[:cut] /= math.sqrt(np.add.reduce(sq[:cut])) * self._word_div
        if cut < w.size:
            w[cut:] /= math.sqrt(np.add.reduce(sq[cut:])) * self._char_div
        cols = (u & _LOW32).astype(np.uint32).view(np.uint8)
        vec = np.bincount(cols, weights=(_SIGNS[(u >> _U32) & _NIBBLE] * w[:, None]).ravel(), minlength=out.size)
        norm = math.sqrt(np.add.reduce(vec * vec))
        if norm > 0:
            np.divide(vec, norm, out=out, casting="unsafe")
