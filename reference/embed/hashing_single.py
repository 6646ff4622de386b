"""hashing-v1 for one text (a single write or a query) in about thirty numpy calls, bit-identical to the batch path.

For one short text numpy's per-call cost (~1 µs) and the projection table's random reads dominate, so
each token's features are cached with their projection already attached: one uint64 per feature,

    key << 40 | sign bits << 32 | the bucket's 4 output columns (one byte each)

(`key` is `block << 18 | bucket`, as `hashing.token_key_list` gives it; a new token's features are
made from plain ints, one array for all of a text's new tokens). Sorting these orders the
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

import array
import functools
import itertools
import math
import threading
from collections.abc import Callable

import numpy as np

from reference.embed.tokenize import compound_tokens

LOG_ENTRIES = 1 << 12   # counts tabled; a text with more features than this computes its logs directly
TOKENS_CACHED = 1 << 16
FEATURE = np.dtype("<u8")   # little-endian whatever the machine: `embed` reads its bytes
_SHIFT = 40   # key bits start here: bits 32-35 the sign bits, 36-39 zero, so byte 4 is the sign bits alone
_LOW = np.zeros(1, dtype=FEATURE)   # below every feature (a bucket's 4 distinct columns are never all 0)
_HIGH = np.array([np.iinfo(np.uint64).max], dtype=FEATURE)   # above every feature: keys are < 2^19
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
    place = np.arange(4, dtype=np.uint64)
    low = (cols.astype(np.uint64) << (place * np.uint64(8))).sum(axis=1, dtype=np.uint64)
    bits = ((signs < 0).astype(np.uint64) << place).sum(axis=1, dtype=np.uint64)
    out = low | (bits << np.uint64(32))
    out.setflags(write=False)
    return out


class SingleText:
    """`embed(text, out)`: one text into a float32 row, as `HashingEmbedder` embeds it."""

    def __init__(self, token_terms: Callable[[str], tuple[str | None, tuple[str, ...]]],
                 part_keys: Callable[[str], tuple[int, ...]], word_bucket: Callable[[str], int],
                 packed: np.ndarray, n_buckets: int, word_factor: float, char_factor: float) -> None:
        """`token_terms`, `part_keys` and `word_bucket` are hashing-v1's: a token's (compound, parts), a
        part's keys, a compound's word bucket; `packed` is `packed_projection` of its table."""
        for f in (word_factor, char_factor):
            if math.frexp(f)[0] != 0.5:
                raise ValueError(f"block factors must be powers of two (exact division), got {f}")
        self._word_div, self._char_div = 1.0 / word_factor, 1.0 / char_factor
        self._cut = np.uint64(n_buckets << _SHIFT)   # char keys (block 1) from here
        self._log = log_table()
        table = array.array("Q")   # ints by plain indexing, 8 bytes a bucket
        table.frombytes(np.ascontiguousarray(packed, dtype=np.uint64).tobytes())
        mask = n_buckets - 1

        def feature(key: int) -> int:
            return key << _SHIFT | table[key & mask]

        @functools.lru_cache(maxsize=TOKENS_CACHED)
        def part_features(part: str) -> tuple[int, ...]:
            return tuple(map(feature, part_keys(part)))

        self._token_terms, self._part_features = token_terms, part_features
        self._compound_feature = lambda compound: feature(word_bucket(compound))
        self._cache: dict[str, np.ndarray] = {}   # token -> its features (bounded, see `_features`)
        self._lock = threading.Lock()

    def _features(self, tokens: list[str]) -> list[np.ndarray]:
        """Each token's features: cached ones as they are, the others made in one array for all of
        them from their parts' cached features (plain ints: numpy calls cost more than these few keys),
        then cached. Past `TOKENS_CACHED` tokens the oldest quarter is dropped (first in, first out)."""
        get = self._cache.get
        out = [get(raw) for raw in tokens]
        missing = [i for i, got in enumerate(out) if got is None]
        if missing:
            flat: list[int] = []
            spans = []
            for i in missing:
                start = len(flat)
                compound, parts = self._token_terms(tokens[i])
                for part in parts:
                    flat.extend(self._part_features(part))
                if compound is not None:
                    flat.append(self._compound_feature(compound))
                spans.append((i, start, len(flat)))
            arr = np.array(flat, dtype=FEATURE)
            arr.setflags(write=False)
            for i, start, stop in spans:
                out[i] = self._cache[tokens[i]] = arr[start:stop]
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
        arrays.insert(0, _LOW)
        arrays.append(_HIGH)
        k = np.concatenate(arrays)
        n = k.size - 2
        if not n:
            return
        k.sort()
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
