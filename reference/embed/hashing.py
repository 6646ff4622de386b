"""`HashingEmbedder` ("hashing-v1"): offline, deterministic, fast, no download.

Features of a text:
- words: `code_terms` — compounds ("getusername", "src/auth/token.py") and
  their parts (snake/camel/dotted/path pieces, lowercased, stop words
  dropped), each part reduced by the light suffix stemmer `stem`;
- char n-grams (3 to 5) of each part padded with spaces, which lets
  "refreshing" meet "refresh".
Weights: sublinear term frequency (1 + ln tf, counted per hash bucket as
scikit-learn's HashingVectorizer does) with no idf (nothing is fitted
on a corpus, so a vector never depends on what else is stored); the word
block and the char block are each L2-normalised, chars weighted 0.5.
Each feature is hashed (CRC-32 of "w\\0word" / "c\\0gram") into 2^18 buckets
and projected to 256 dims by the fixed seeded sparse projection of
`projection.py`; the result is L2-normalised. A text without word
characters embeds to the zero vector.

This is scikit-learn's HashingVectorizer + random projection design written
directly in numpy: measured here, importing scikit-learn costs about 2.5 s and
`HashingVectorizer.transform` about 1 ms per call, more than this whole
embedder needs for a memory-sized text.
"""
from __future__ import annotations

import functools
import zlib

import numpy as np

from reference.embed.hashing_single import SingleText, log_table
from reference.embed.projection import projection_table
from reference.embed.protocol import embed_input
from reference.embed.token_features import FEATURE, SHIFT, TokenFeatures, packed_projection
from reference.embed.tokenize import code_terms, compound_tokens, stem, token_terms

N_BUCKETS = 1 << 18
SEED = 0xC0DE
NNZ = 4
CHAR_WEIGHT = 0.5
NGRAMS = (3, 4, 5)
TEXTS_PER_PASS = 4096   # texts keyed, sorted and projected together (their keys fit 32 bits)


_crc32 = zlib.crc32
_GRAM_CRC = zlib.crc32(b"c\0")
_BUCKET_MASK = N_BUCKETS - 1   # N_BUCKETS is a power of two: `& mask` is `% N_BUCKETS`


@functools.lru_cache(maxsize=1 << 16)
def _word_bucket(word: str) -> int:
    return zlib.crc32(b"w\0" + word.encode("utf-8")) % N_BUCKETS


@functools.lru_cache(maxsize=256)
def _gram_slices(length: int) -> tuple[slice, ...]:
    """The slices of a padded part of `length` characters that are its 3-, 4- and 5-grams, in that order."""
    return tuple(slice(i, i + n) for n in NGRAMS for i in range(length - n + 1))


def _gram_list(part: str, block: int = 0) -> list[int]:
    """Buckets of the 3-5 character n-grams of `part` padded with one space each side: CRC-32 of
    b"c\0" + the gram's UTF-8, continued from the prefix's CRC (ASCII grams sliced from the encoded part),
    mod the bucket count; `block` (N_BUCKETS for the char block's keys) is or-ed in."""
    padded = f" {part} "
    if padded.isascii():
        b = padded.encode("ascii")
        return [_crc32(b[s], _GRAM_CRC) & _BUCKET_MASK | block for s in _gram_slices(len(b))]
    return [_crc32(padded[s].encode("utf-8"), _GRAM_CRC) & _BUCKET_MASK | block for s in _gram_slices(len(padded))]


@functools.lru_cache(maxsize=1 << 16)
def _gram_buckets(part: str) -> np.ndarray:
    """`_gram_list` as a read-only int64 array."""
    out = np.array(_gram_list(part), dtype=np.int64)
    out.setflags(write=False)
    return out


def _sublinear(buckets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distinct buckets ascending, 1 + ln(count) weights L2-normalised)."""
    ub, counts = np.unique(buckets, return_counts=True)
    w = 1.0 + np.log(counts.astype(np.float64))
    return ub, w / np.sqrt((w * w).sum())


@functools.lru_cache(maxsize=1 << 16)
def _part_keys(part: str) -> tuple[int, ...]:
    """A part's feature keys: its word bucket (of the stemmed part), then its n-gram buckets offset into the
    char block. Plain ints: a new token's keys become one array, not a few small ones per part."""
    return (_word_bucket(stem(part)), *_gram_list(part, N_BUCKETS))


def token_key_list(raw: str) -> list[int]:
    """One token's feature keys (`block << 18 | bucket`) as ints: its parts' `_part_keys`, then the
    compound's word bucket when it has more than one part. A text's keys are its tokens' keys."""
    compound, parts = token_terms(raw)
    keys = [k for p in parts for k in _part_keys(p)]
    if compound is not None:
        keys.append(_word_bucket(compound))
    return keys


@functools.lru_cache(maxsize=1 << 16)
def _token_keys(raw: str) -> np.ndarray:
    """`token_key_list` as a read-only uint32 array (the batch path's per-token cache)."""
    out = np.array(token_key_list(raw), dtype=np.uint32)
    out.setflags(write=False)
    return out


def _batch_keys(texts: list[str], features: TokenFeatures | None) -> np.ndarray:
    """Every feature of every text as one uint32 key `text << 19 | block << 18 | bucket`, repeats kept
    (at most `TEXTS_PER_PASS` texts, so the key fits 32 bits).

    The order of the keys does not matter (they are sorted and counted next), so each token's
    cached keys go into one concatenation for the whole batch instead of a few arrays per text.
    The keys come from the tokens' cached features (`token_features.py`, shared with single texts)
    where there are some, else (more than 256 dims) from `_token_keys`."""
    per_text = [compound_tokens(text) for text in texts]
    tokens = [raw for text_tokens in per_text for raw in text_tokens]
    if not tokens:
        return np.zeros(0, dtype=np.uint32)
    if features is None:
        flat = [_token_keys(raw) for raw in tokens]
        keys = np.concatenate(flat)
        lens = np.fromiter((a.size for a in flat), dtype=np.int64, count=len(flat))
    else:   # one call: the batch's new tokens are made in one array
        flat = features.of(tokens)
        keys = (np.frombuffer(b"".join(flat), dtype=FEATURE) >> np.uint64(SHIFT)).astype(np.uint32)
        lens = np.fromiter(map(len, flat), dtype=np.int64, count=len(flat)) // 8
    owner = np.repeat(np.arange(len(texts), dtype=np.uint32) << np.uint32(19),
                      np.fromiter(map(len, per_text), dtype=np.int64, count=len(per_text)))
    return keys | np.repeat(owner, lens)


def _counted(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distinct keys ascending, how often each occurs): `np.unique(keys, return_counts=True)`
    without its general-purpose steps (about 2x faster on a batch's few hundred thousand keys)."""
    keys = np.sort(keys, kind="stable")   # the same order (integers); measured faster on a batch's keys
    first = np.empty(keys.size, dtype=bool)
    first[0] = True
    np.not_equal(keys[1:], keys[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    return keys[starts], np.diff(np.append(starts, keys.size))


def _log1p_counts(counts: np.ndarray) -> np.ndarray:
    """`1 + ln(count)` per count (float64): from the table where every count is in it."""
    table = log_table()
    if counts.size and int(counts.max()) < table.size:
        return table[counts]
    return 1.0 + np.log(counts.astype(np.float64))


class HashingEmbedder:
    """Hashed words + char n-grams, sublinear tf, fixed sparse projection to `dim` (256)."""

    name = "hashing-v1"

    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        if dim != 256:
            self.name = f"hashing-v1-{dim}"  # another dim is another model: never mix their vectors
        self._cols, self._vals = projection_table(N_BUCKETS, dim, NNZ, SEED)
        # The same table in 1/8 of the bytes (uint8 columns, int8 signs; every value is ±`_scale`): a text's
        # few hundred random lookups then mostly hit the CPU cache. `vals[b] * w` equals `sign[b] * (w * scale)`
        # exactly (a sign flip is exact), so the vectors are bit-identical.
        self._cols_small = self._cols.astype(np.min_scalar_type(dim - 1))
        self._signs = np.sign(self._vals).astype(np.int8)
        self._scale = float(np.abs(self._vals[0, 0]))
        # a bucket's 4 columns (uint8 up to 256 dims) and 4 signs as one 4-byte word each, for 1-D takes
        self._cols_word = self._signs_word = None
        if self._cols_small.dtype == np.uint8 and NNZ == 4:
            self._cols_word = np.ascontiguousarray(self._cols_small).view(np.uint32).reshape(-1)
            self._signs_word = np.ascontiguousarray(self._signs).view(np.int32).reshape(-1)
        # tokens' features with their projection attached (token_features.py), read by both paths, and
        # the single-text path (hashing_single.py); a bucket's columns must fit a byte: <= 256 dims
        self._features = None if dim > 256 else TokenFeatures(
            token_terms, _part_keys, _word_bucket, packed_projection(self._cols_small, self._signs), N_BUCKETS)
        self._single = None if self._features is None else SingleText(
            self._features, N_BUCKETS, self._scale, CHAR_WEIGHT * self._scale)

    def embed(self, texts: list[str]) -> np.ndarray:
        """(len(texts), dim) float32, rows L2-normalised (zero rows for texts without words).

        The whole batch is weighted and projected in a few numpy calls; every row is
        bit-identical to embedding its text alone (`_embed_one`, the per-text definition):
        each row's values go through the same reductions in the same order.
        """
        texts, _ = embed_input(texts, self.dim)   # a single string is a TypeError
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if len(texts) == 1 and self._single is not None:   # a single write's text or a query
            self._single.embed(texts[0], out[0])
            return out
        for start in range(0, len(texts), TEXTS_PER_PASS):
            self._embed_into(texts[start: start + TEXTS_PER_PASS], out[start: start + TEXTS_PER_PASS])
        return out

    def _embed_into(self, texts: list[str], out: np.ndarray) -> None:
        n = len(texts)
        keys = _batch_keys(texts, self._features)
        if not keys.size:
            return
        # one (text, block, bucket) key per feature: sorted, it orders each text's word buckets, then its chars
        ukeys, counts = _counted(keys)
        seg = ukeys >> 18                      # text * 2 + block
        starts = np.flatnonzero(np.concatenate(([True], seg[1:] != seg[:-1])))
        w = _log1p_counts(counts)
        # each segment's own `.sum()` (numpy's pairwise summation; np.add.reduceat sums in another order)
        sq, bounds, add = w * w, starts.tolist() + [len(w)], np.add.reduce
        sums = np.array([add(sq[a:b]) for a, b in zip(bounds, bounds[1:])])
        lens = np.diff(bounds)
        w = w / np.repeat(np.sqrt(sums), lens)
        w = np.where(seg & 1, w * CHAR_WEIGHT, w)
        buckets = (ukeys & (N_BUCKETS - 1)).astype(np.int64)
        row = (ukeys >> 19).astype(np.int64)[:, None]
        cols, signs = self._gather(buckets)
        flat = np.bincount((row * self.dim + cols).ravel(),
                           weights=(signs * (w * self._scale)[:, None]).ravel(), minlength=n * self.dim)
        vecs = flat.reshape(n, self.dim)
        norms = np.sqrt((vecs * vecs).sum(axis=1))
        ok = norms > 0
        out[ok] = (vecs[ok] / norms[ok][:, None]).astype(np.float32)

    def _gather(self, buckets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(columns, signs) of each bucket, (n, NNZ): one 1-D take of 4-byte words where a bucket's four
        columns fit a byte each (2-D fancy indexing costs about 3x more per row)."""
        if self._cols_word is None:
            return self._cols_small[buckets], self._signs[buckets]
        return (self._cols_word.take(buckets).view(np.uint8).reshape(-1, NNZ),
                self._signs_word.take(buckets).view(np.int8).reshape(-1, NNZ))

    def _embed_one(self, text: str) -> np.ndarray:
        compounds, parts = code_terms(text)
        if not parts and not compounds:
            return np.zeros(self.dim, dtype=np.float32)
        wb, ww = _sublinear(np.array([_word_bucket(w) for w in compounds + [stem(p) for p in parts]], dtype=np.int64))
        if parts:
            cb, wc = _sublinear(np.concatenate([_gram_buckets(p) for p in parts]))
        else:
            cb, wc = np.zeros(0, dtype=np.int64), np.zeros(0)
        buckets = np.concatenate([wb, cb])
        weights = np.concatenate([ww, wc * CHAR_WEIGHT])
        vec = np.bincount(self._cols[buckets].ravel(), weights=(self._vals[buckets] * weights[:, None]).ravel(),
                          minlength=self.dim)
        norm = float(np.sqrt((vec * vec).sum()))
        return (vec / norm).astype(np.float32) if norm > 0 else np.zeros(self.dim, dtype=np.float32)
