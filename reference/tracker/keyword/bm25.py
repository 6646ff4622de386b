"""bm25 as FTS5's fts5_aux.c computes it, over numpy postings: the pure arithmetic of `KeywordIndex`.

Every function keeps FTS5's floating-point operations and their order, so the
scores equal FTS5's to the last bit: idf = log((N - n + 0.5) / (n + 0.5)),
at least 1e-6; per row, idf * (f * (k1 + 1)) / (f + k1 * (1 - b + b * D / avgdl)),
summed over the query's phrases in query order. A "term" below is one phrase
of the query as (ids ascending, tf part per id, idf, largest tf part[, idf x tf part per id]).
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable

import numpy as np

K1, B = 1.2, 0.75  # FTS5's bm25 constants
PRUNE_SHARE = 64  # give up pruning once the candidates exceed 1/PRUNE_SHARE of the postings
_PHRASE = re.compile(r'"((?:[^"]|"")*)"')
_MATCH = re.compile(r'^"(?:[^"]|"")*"(?: OR "(?:[^"]|"")*")*$')


def phrases_of(match: str) -> list[str] | None:
    """The phrases of an `fts_match` string ("a" OR "b" ...); None for any other MATCH syntax."""
    if not _MATCH.match(match):
        return None
    return [p.replace('""', '"') for p in _PHRASE.findall(match)]


def idf(n_rows: int, n_hit: int) -> float:
    """FTS5's idf of a phrase found in `n_hit` of `n_rows` rows (C's log: math.log, not numpy's)."""
    value = math.log((n_rows - n_hit + 0.5) / (n_hit + 0.5))
    return value if value > 0.0 else 1e-6


def tf_part(freq: np.ndarray, sizes: np.ndarray, avgdl: float) -> np.ndarray:
    """(f * (k1 + 1)) / (f + k1 * (1 - b + b * D / avgdl)) per row, in C's evaluation order."""
    return (freq * (K1 + 1.0)) / (freq + K1 * ((1 - B) + B * sizes / avgdl))


def score_ids(terms: list[tuple], among: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The scores of the ids `among` (sorted; few) that match a phrase, each phrase's postings looked
    up rather than scanned; summed in query order like `KeywordIndex._score_all`."""
    acc = np.zeros(among.size, dtype=np.float64)
    matched = np.zeros(among.size, dtype=bool)
    for term in terms:
        ids = term[0]
        pos = np.minimum(np.searchsorted(ids, among), ids.size - 1)
        hit = ids[pos] == among
        acc[hit] += term[2] * term[1][pos[hit]]
        matched |= hit
    return among[matched], acc[matched]


def dense_scores(terms: list[tuple], n: int) -> np.ndarray:
    """Every id's score below `n` (0.0 where no phrase matches), summed phrase by phrase in query order:
    `bincount` adds each weight to its id in input order, starting from 0.0, as fts5_aux.c's loop does."""
    ids = np.concatenate([t[0] for t in terms])
    weights = np.concatenate([weights_of(t) for t in terms])
    return np.bincount(ids, weights=weights, minlength=n)


def weights_of(term: tuple) -> np.ndarray:
    """idf x tf part per id of a term: its fifth item when the caller kept it (the same products), else computed."""
    return term[4] if len(term) > 4 else term[2] * term[1]


def pruned(terms: list[tuple], k: int, total: int,
            union: Callable[[list[np.ndarray]], np.ndarray]) -> tuple[np.ndarray, np.ndarray] | None:
    """MaxScore (Turtle and Flood, 1995): the exact top k scored from the rows of the phrases with
    the highest upper bounds only, when the other phrases together cannot reach the k-th score.

    A row outside those phrases' postings scores at most the sum of the other phrases' bounds
    (idf x largest tf part); once that sum is below the k-th score found, strictly (so no row
    outside can tie it either), the candidates hold the whole top k. None when the candidates
    grow past 1/PRUNE_SHARE of the postings (scoring them all is then as cheap).
    """
    bound = [t[2] * t[3] for t in terms]
    order = sorted(range(len(terms)), key=lambda i: -bound[i])
    for m in range(1, len(terms)):
        rest = math.fsum(bound[i] for i in order[m:])
        ess = [terms[i][0] for i in order[:m]]
        if max(a.size for a in ess) * PRUNE_SHARE > total:
            return None   # the union is at least that large: known before paying for it
        cand = ess[0] if m == 1 else union(ess)
        if cand.size * PRUNE_SHARE > total:
            return None
        if cand.size < k:
            continue
        ids, scores = score_ids(terms, cand)
        kth = np.partition(scores, scores.size - k)[scores.size - k]
        if rest * (1 + 1e-9) < kth:
            return ids, scores
    return None


def top(key_hashes: np.ndarray, scores: np.ndarray, k: int) -> list[tuple[int, float]]:
    """The best `k` (plus ties with the k-th), best first, ties by key hash."""
    if scores.size > k:
        kth = np.partition(scores, scores.size - k)[scores.size - k]
        sel = np.flatnonzero(scores >= kth)
        key_hashes, scores = key_hashes[sel], scores[sel]
    order = np.lexsort((key_hashes, -scores))
    return list(zip(key_hashes[order].tolist(), scores[order].tolist()))
