"""The lexical ranking pipeline: BM25 (+ cosine), expansion through shared entities, a recency prior.

    scores = hybrid_scores(index, "insert_all fails on m2m", TUNED, vector=cosines_by_row)
    best = top_rows(scores, 10, index.ids)

1. First stage: BM25 over code-aware terms (`index.py`) divided by its best
   score, plus `vector_weight` x the query's cosine with each row divided by
   the best cosine (rows the caller gives, e.g. the vector top 100; negative
   cosines count 0).
2. Expansion (`expansion.py`): the entities of the `expand_top` best rows,
   weighted by score / entity count ** `expand_norm` x idf, summed per row,
   normalised, x `expand_weight`; plus `named_weight` x the same sum over
   the `named_top` files whose paths the query names (`named_files`).
3. Recency prior (`recency.py`): exp(-memories_ago / `recency_scale`), ages
   counted in write moments (`LexicalIndex.ticks`), joined in `recency_form`
   (`with_prior`): seed 001's score x (1 + `recency_weight` x prior), or
   score + `recency_weight` x prior where steps 1-2 found evidence (score > 0).
   Either way it orders what was found; it never makes a memory that nothing
   matched a hit. With `note_prior` "first", a note (a memory that does not
   record the files it changed: `LexicalIndex.commits`) has only its first
   stage scaled (score + weight x prior x first stage, in either form), the
   expansion and named-file parts undecayed: over
   a store of short notes those parts are nearly equal for every note of one
   feature, and scaled by the prior they let recency, not the match, decide
   (fitted on notes: `bench/calibration/notes.py`).

Each part is a reusable function (the rankers, Memory Lane and project
memory call them); `params.py` holds the fitted values.
"""
from __future__ import annotations

import numpy as np

from reference.lexical.expansion import entity_seeds, named_files, spread
from reference.lexical.index import LexicalIndex
from reference.lexical.params import LexicalParams


def _normalised(x: np.ndarray) -> np.ndarray:
    """`x` divided by its best (in place: callers hand in a fresh array)."""
    best = x.max(initial=0.0)
    if best > 0.0:
        x /= best
    return x


def first_stage(index: LexicalIndex, query: str, params: LexicalParams,
                vector: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Normalised BM25 + vector_weight x normalised cosine, by row. `vector` = (rows, cosines)."""
    s = _normalised(index.bm25(query, params.k1, params.b, params.max_share))
    if vector is not None and params.vector_weight > 0.0:
        rows, cos = vector
        keep = (rows < s.size) & (cos > 0)
        rows, cos = rows[keep], cos[keep].astype(np.float64)
        if cos.size:
            s[rows] += params.vector_weight * cos / cos.max()
    return s


def hybrid_scores(index: LexicalIndex, query: str, params: LexicalParams,
                  vector: tuple[np.ndarray, np.ndarray] | None = None,
                  allowed: np.ndarray | None = None) -> np.ndarray:
    """The pipeline's final score of every row (float64; removed rows and rows not `allowed` are -inf)."""
    s = first_stage(index, query, params, vector)
    every = allowed is None and index.live == index.rows   # no row to rule out: no mask to build or apply
    mask = None if every else index.alive() if allowed is None else (index.alive() & allowed)
    shared = named = prior = None
    # a part with no entity to spread adds 0.0 to every row: it is left out rather than added as zeros
    if params.expand_top > 0 and params.expand_weight > 0.0:
        weights, lead = entity_seeds(index, s, params.expand_top, mask, params.expand_norm)
        shared = spread(index, weights, s.size, lead) if weights else None
    if params.named_top > 0 and params.named_weight > 0.0:
        files = named_files(index, query, params.named_top)
        named = spread(index, files, s.size) if files else None
    start = 0
    if params.recency_weight > 0.0:
        start, prior = index.recency_tail(params.recency_scale)
    fused = fuse(s, shared, named, prior, params, start, in_place=True, commits=index.commits())
    return fused if every else np.where(mask, fused, -np.inf)


def fuse(first: np.ndarray, shared: np.ndarray | None, named: np.ndarray | None, prior: np.ndarray | None,
         params: LexicalParams, start: int = 0, in_place: bool = False,
         commits: np.ndarray | None = None) -> np.ndarray:
    """first + expand_weight x shared + named_weight x named, then the prior joined by `with_prior` (None: a
    part left out). The calibration fits the weights over cached parts with this function.

    `prior` may cover only the rows from `start` on (`recency_tail`: it is 0 before, where either form leaves
    the score as it is). With `in_place` the sums are made in `first` (a caller's fresh array); the floats are
    those of the copying form either way. `commits` (bool by row, `LexicalIndex.commits`; None: every row a
    commit) scopes the prior by `params.note_prior` (module doc): with "first" a note's score is the sum plus
    recency_weight x prior x its first stage, in either `recency_form`, where a commit's is `with_prior` of the
    sum (x (1 + recency_weight x prior) multiplied, + recency_weight x prior added).
    """
    notes = boost = None
    if prior is not None and commits is not None and params.note_prior == "first":
        tail_notes = ~commits[start:]
        if tail_notes.any():
            # taken before `first` is summed into in place; a store of notes alone then needs no second
            # full-length product (at 100k memories of one moment the prior's tail is every row)
            notes, boost = tail_notes, (params.recency_weight * prior) * first[start:]
    s = first if in_place else first.copy()
    if shared is not None:
        s += params.expand_weight * shared
    if named is not None:
        s += params.named_weight * named
    if prior is not None:
        if notes is None:
            s[start:] = with_prior(s[start:], prior, params)
        elif notes.all():
            s[start:] += boost
        else:
            s[start:] = np.where(notes, s[start:] + boost, with_prior(s[start:], prior, params))
    return s


def with_prior(s: np.ndarray, prior: np.ndarray, params: LexicalParams) -> np.ndarray:
    """`s` with the recency prior (same shape) joined in `params.recency_form`: "multiply" (seed 001's decay)
    s x (1 + recency_weight x prior); "add" s + recency_weight x prior where s > 0. Either way a row with no
    evidence (s 0) stays 0; multiplied, the prior scales each score by at most 1 + recency_weight, so it cannot
    reorder matches whose scores differ by more than that factor (one more query word), where added it can."""
    if params.recency_form == "multiply":
        return s * (1.0 + params.recency_weight * prior)
    return s + params.recency_weight * prior * (s > 0.0)


def top_rows(scores: np.ndarray, k: int, ids: list[str], positive: bool = True) -> list[tuple[int, float]]:
    """The best `k` (row, score), score descending, ties by the row's id; with `positive` only scores > 0."""
    ok = _above_sampled_kth(scores, k) if positive else None
    if ok is None:
        ok = np.flatnonzero(scores > 0.0) if positive else np.flatnonzero(np.isfinite(scores))
    if ok.size == 0 or k <= 0:
        return []
    if ok.size > k:
        kth = -np.partition(-scores[ok], k - 1)[k - 1]
        ok = ok[scores[ok] >= kth]    # the k best and every tie with the k-th
    vals = scores[ok]
    order = np.argsort(-vals, kind="stable")
    vals = vals[order]
    if vals.size > 1 and np.any(vals[1:] == vals[:-1]):   # ties: broken by id below
        ranked = sorted(((-float(scores[r]), ids[r], r) for r in ok.tolist()))[:k]
        return [(r, -s) for s, _, r in ranked]
    return list(zip(ok[order[:k]].tolist(), vals[:k].tolist()))


SAMPLE_STRIDE = 16   # the threshold sample of top_rows (and Memory Lane's `_reachable`): every 16th row


def _above_sampled_kth(scores: np.ndarray, k: int) -> np.ndarray | None:
    """Rows scoring at least the k-th best positive score of every `SAMPLE_STRIDE`-th row (None: fewer than k).

    The k-th best of a sample is never above the k-th best of all, so these rows hold every row that the
    k best and their ties need, and only positive ones: `top_rows` then partitions a few hundred rows
    instead of every matched one (~0.7 ms at 100k rows, 50k matched).
    """
    if k <= 0:
        return None
    sample = scores[::SAMPLE_STRIDE]
    sample = sample[sample > 0.0]   # only positive rows count; many equal zeros or -infs slow `partition` down
    if sample.size < k:
        return None
    kth = np.partition(sample, sample.size - k)[sample.size - k]
    return np.flatnonzero(scores >= kth)


def semantic_rerank(scores: np.ndarray, candidates: int, cosines, weight: float, ids: list[str],
                    top: list[tuple[int, float]] | None = None) -> list[tuple[int, float]]:
    """Seed 000 §4.3's "semantic re-rank" of the `candidates` best rows of `scores` (filtered already).

    Each candidate's score divided by the best candidate's, plus `weight` x its cosine divided by the best
    positive cosine (`cosines(rows) -> array`, NaN for a row without a vector: 0). All candidates, best first,
    ties by id. `top`: `top_rows(scores, candidates, ids)` when the caller has it already.
    """
    top = top_rows(scores, candidates, ids) if top is None else top
    if not top:
        return []
    rows = np.asarray([r for r, _ in top], dtype=np.int64)
    s = np.asarray([v for _, v in top], dtype=np.float64)
    s = s / s.max() if s.max() > 0 else s
    if weight > 0.0:
        cos = np.nan_to_num(np.asarray(cosines(rows), dtype=np.float64), nan=0.0)
        cos = np.maximum(cos, 0.0)
        if cos.max(initial=0.0) > 0.0:
            s = s + weight * cos / cos.max()
    order = np.argsort(-s, kind="stable")
    if np.any(s[order[1:]] == s[order[:-1]]):   # ties: broken by id (Python floats: no numpy scalar per key)
        sl, rl = s.tolist(), rows.tolist()
        order = sorted(range(rows.size), key=lambda i: (-sl[i], ids[rl[i]]))
    return [(int(rows[i]), float(s[i])) for i in order]
