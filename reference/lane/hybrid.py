"""Memory Lane's ranker-mode search: seed 004's dual search over the code-aware lexical ranking.

The seed's steps, each kept:

1. **Entities.** The query's (explicit slugs, paths, known names: resolver.py)
   filter strictly, as the seed says. The agent's **working paths** (the files
   it has open, passed with the query) are path-based entities too (Phase 4,
   paths.py): the memories that touched one of those files, or carry a slug one
   of them implies, come first, and the open search fills the list below them
   (a working file says what the agent is near, not that nothing else may count).
2. **Rank** each candidate set by relevance, with the parts of `reference/lexical`
   (the same ones every other ranker uses): code-aware BM25 divided by its best
   (`ranking.first_stage`), plus `vector_weight` x the cosine of the query's 100
   nearest memories divided by the best (the seed's semantic search), plus
   `expand_weight` x the expansion through the files of the `expand_top` best
   first-stage hits (`expansion.expand`), plus `named_weight` x the expansion
   through the files the query names (`expansion.named_files`, weight as the
   lexical ranking's), plus `recency_weight` x the recency prior
   (`recency.recency_prior`, where the rest is positive: `ranking.with_prior`,
   form "add"); for a note (a memory that records no changed files) the prior
   scales its first stage instead, as in every lexical ranker (`ranking.fuse`,
   `note_prior`). `LANE` holds the weights, fitted on the calibration split (`python3 -m bench.calibration.lane`;
   `note_prior` is the lexical ranking's own, like k1 and b: `bench/calibration/notes.py`).
3. **Floor.** A candidate with keyword or shared-file evidence passes; one
   found by the embedder alone must reach the seed's semantic floor (the
   entity floor inside an entity filter). As in search.py, an explicit
   structured filter vouches for its candidates and lifts the floor.
4. **Re-rank** `final = relevance * type_weight * intent_boost * feedback_factor`
   (seed 004 Phase 3) over the `DEPTH` most relevant candidates of each tier,
   best first, ties by id; memories injected in the session are left out.

`features` exposes step 2's parts so that the calibration can fit `LANE` from
one replay. A search asks for them with `depth` (step 4's): only the rows that
can be among a tier's `depth` most relevant get them (`_reachable`: an exact
bound, so the answers are those over every candidate; README "Search cost").
"""
from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import numpy as np

from reference.lane.intent import detect_intents
from reference.lane.paths import near_keys
from reference.lane.resolver import Resolution
from reference.lane.search import LaneHit, LaneResult, LaneSearch
from reference.lexical.expansion import entity_seeds, named_files, spread
from reference.lexical.layer import LexicalLayer
from reference.lexical.params import TUNED, LexicalParams
from reference.lexical.ranking import SAMPLE_STRIDE, first_stage, fuse
from reference.lexical.recency import recency_prior

# fitted by `python3 -m bench.calibration.lane` on the calibration split (it prints the grid and the choice);
# k1, b and the corpus stop-word share are the lexical index's own (`TUNED`, bench/calibration/lexical.py);
# the prior added, the form these weights were fitted in (only bench/calibration/lexical.py fits the form)
LANE = TUNED.with_(vector_weight=0.1, expand_top=8, expand_weight=1.5, expand_norm=0.5, recency_weight=1.2,
                   recency_scale=20.0, recency_form="add")
DEPTH = 100   # candidates of each tier the factors re-rank (set a priori; the factors lie in [0.2, 1.27])


@dataclass(frozen=True)
class Features:
    """Candidates (lexical index rows) and their relevance parts; `entity`: in the working-path (near) set.

    `lexical`, `cosine`, `shared`, `named` are the lexical pipeline's normalised BM25, cosine, expansion and
    named-file expansion at those rows; `raw_cosine` the cosine itself (0 outside the vector pool); `n_rows`
    the index's rows then and `ticks` their write-time ticks (the recency prior counts from the newest);
    `commits` whether each candidate is a commit (`LexicalIndex.commits`; None: all are)."""

    rows: np.ndarray
    lexical: np.ndarray
    cosine: np.ndarray
    shared: np.ndarray
    raw_cosine: np.ndarray
    entity: np.ndarray
    n_rows: int
    named: np.ndarray
    ticks: np.ndarray
    commits: np.ndarray | None = None

    def relevance(self, p: LexicalParams, prior: np.ndarray | None = None) -> np.ndarray:
        """The lexical pipeline's score of each candidate under `p` (`ranking.fuse`, as `hybrid_scores`);
        `prior`: `recency_prior(n_rows, p.recency_scale, ticks)` when the caller keeps it (computed if None)."""
        at = None
        if p.recency_weight > 0.0:
            if prior is None:
                prior = recency_prior(self.n_rows, p.recency_scale, self.ticks)
            at = prior[self.rows]
        return fuse(self.lexical + p.vector_weight * self.cosine, self.shared, self.named, at, p, in_place=True,
                    commits=self.commits)


class PriorCache:
    """The recency prior by row of one index (`recency_prior` of its rows and ticks), kept while the number
    of rows and the scale stay: a row's tick never changes once written, so neither does the prior.

    Memory Lane indexes the prior by row, so it keeps the whole array; over every row of the index it is
    laid out from the index's own kept tail (`LexicalIndex.recency_tail`, which the lexical ranking shares),
    so the `exp` is taken once per write for both."""

    def __init__(self) -> None:
        self._last: tuple[Any, int, float, np.ndarray] | None = None

    def of(self, index: Any, n: int, scale: float) -> np.ndarray:
        """`recency_prior(n, scale, index.ticks()[:n])`, read-only."""
        last = self._last
        if last is not None and last[0] is index and last[1] == n and last[2] == scale:
            return last[3]
        if n == index.rows:
            start, tail = index.recency_tail(scale)
            prior = np.zeros(n, dtype=np.float64)
            prior[start:] = tail
        else:
            prior = recency_prior(n, scale, index.ticks()[:n])
        prior.flags.writeable = False
        self._last = (index, n, scale, prior)
        return prior


_NO_ROWS = np.zeros(0, dtype=np.int64)
_SPARSE = 8      # a filter keeping under 1/8 of the rows is walked by its rows, not by a mask of every row


def _fit(mask: np.ndarray | None, n: int) -> np.ndarray:
    """A bool mask by row cut or padded (False) to `n` rows (the index may have grown since it was made)."""
    if mask is None:
        return np.ones(n, dtype=bool)
    return mask[:n] if mask.size >= n else np.concatenate([mask, np.zeros(n - mask.size, dtype=bool)])


def lane_features(layer: LexicalLayer, query: str, p: LexicalParams, allowed: np.ndarray | None,
                  near: np.ndarray | None, depth: int | None = None, priors: PriorCache | None = None) -> Features:
    """Step 2's parts for the memories among the sorted key hashes `allowed` (None: all) that have keyword,
    cosine or shared-file evidence, or are in `near` (sorted key hashes, e.g. the working paths' memories).

    With `depth`, only the candidates that can be among the `depth` most relevant of their tier (every
    `near` one; of the rest those `_reachable` keeps), so that each tier's `depth` best under `p` and
    every tie with the depth-th are the same as among all candidates; `priors` keeps the recency prior."""
    vector = layer.vector(query, allowed) if p.vector_weight > 0.0 else None
    allowed_rows = layer.allowed_rows(allowed)
    index = layer.index
    lex = first_stage(index, query, p.with_(vector_weight=0.0))      # normalised code-aware BM25
    n = lex.size
    mask = _fit(index.alive(), n) & _fit(allowed_rows, n)
    vrows, vraw, vcos = _NO_ROWS, np.zeros(0), np.zeros(0)          # the vector pool: rows, cosine, normalised
    if vector is not None:
        rows, c = vector
        keep = (rows < n) & (c > 0)
        vrows, vraw = rows[keep], c[keep]
        if vraw.size:
            vcos = vraw / vraw.max()
    seeds: dict[str, float] = {}    # `expansion.expand` in two steps, to know which rows it reaches
    lead = 1.0
    if p.expand_top > 0 and index.entity_postings:                  # (an index without entities has no seed)
        first = lex.copy()
        first[vrows] += p.vector_weight * vcos     # lex + vector_weight * cosine (0 outside the pool: lex itself)
        seeds, lead = entity_seeds(index, first, p.expand_top, mask, p.expand_norm)
    files = named_files(index, query, p.named_top) if p.named_top > 0 else {}
    shared = spread(index, seeds, n, lead) if seeds else None       # None: 0 at every row
    named = spread(index, files, n) if files else None
    erows = _NO_ROWS
    if near is not None and near.size:
        near_rows, _ = layer.rows_of(near, np.zeros(near.size))
        erows = _union(near_rows[near_rows < n])
        erows = erows[mask[erows]]

    def parts(at: np.ndarray) -> tuple[np.ndarray, ...]:
        """lex, cosine, shared, raw cosine, entity, named at the sorted rows `at`."""
        zero = np.zeros(at.size)
        return (lex[at], _placed(at, vrows, vcos), zero if shared is None else shared[at], _placed(at, vrows, vraw),
                _placed(at, erows, np.ones(erows.size)) > 0, zero if named is None else named[at])

    def evident(at: np.ndarray) -> np.ndarray:
        lx, cs, sh, _, en, nm = parts(at)
        return mask[at] & ((lx > 0) | (cs > 0) | (sh > 0) | (nm > 0) | en)

    if depth is None:
        rows = np.flatnonzero(mask)
        rows = rows[evident(rows)]
    else:
        extra = _union(vrows, _holders(index, seeds, n), _holders(index, files, n))
        prior = (priors or PriorCache()).of(index, n, p.recency_scale) if p.recency_weight > 0.0 else None
        every = index.live == n and allowed_rows is None and erows.size == 0   # no row of the rest tier ruled out
        ok = mask
        if erows.size:
            ok = mask.copy()
            ok[erows] = False
        rest = _reachable(lex, ok, every, p, prior, depth, index.commits()[:n])
        rows = _union(rest, extra[evident(extra)], erows)
    lexical, cos, shared_at, raw, entity, named_at = parts(rows)
    return Features(rows, lexical, cos, shared_at, raw, entity, n, named_at, index.ticks()[:n],
                    index.commits()[rows])


def _placed(at: np.ndarray, rows: np.ndarray, values: np.ndarray) -> np.ndarray:
    """By position of the sorted distinct rows `at`: the value given for that row in (`rows`, `values`), else 0."""
    out = np.zeros(at.size, dtype=values.dtype)
    if rows.size and at.size:
        pos = np.minimum(np.searchsorted(at, rows), at.size - 1)
        hit = at[pos] == rows
        out[pos[hit]] = values[hit]
    return out


def _holders(index: Any, weights: dict[str, float], n: int) -> np.ndarray:
    """Rows (< n) holding an entity of positive weight: where `spread(index, weights, n)` may be nonzero."""
    parts = [index.entity_postings[e].rows() for e, w in weights.items() if w > 0.0]
    if not parts:
        return _NO_ROWS
    rows = np.concatenate(parts).astype(np.int64)
    return rows[rows < n]


def _reachable(lex: np.ndarray, ok: np.ndarray, every: bool, p: LexicalParams, prior: np.ndarray | None,
               depth: int, commits: np.ndarray | None = None) -> np.ndarray:
    """Rows of `ok` (bool by row; `every`: all rows are) that can be among the `depth` most relevant of them,
    leaving aside the rows with a cosine, shared-file or named-file part (the caller adds those); `commits`
    (bool by row; None: all) as `Features.commits`.

    Outside those rows a row's relevance is `pre` = `fuse(lex, None, None, prior, p, commits=commits)`, the same
    floats `Features.relevance` computes (the other parts are 0.0 there and add nothing); inside them it is at
    least `pre` (every part is >= 0, and each form of the prior, a note's included, keeps the order). The
    depth-th best `pre` of every 16th row of `ok`, t, is then at most the depth-th best relevance, so a row
    outside those rows with `pre` below t is below the depth best and their ties: only rows with `pre` >= t are
    kept (every row with keyword evidence when the sample holds fewer than `depth`). The prior is at most 1 and
    `lex` (BM25 over its best) at most 1, so `pre` <= lex + recency_weight for a commit's added prior and
    lex x (1 + recency_weight) for the multiplied one and for a note's (lex + recency_weight x prior x lex): only
    the rows whose `lex` passes their bound (with a margin far above rounding) get their `pre` computed."""
    rw = p.recency_weight   # `prior` is given when rw > 0
    dom = None
    if not every and np.count_nonzero(ok) * _SPARSE < ok.size:      # a narrow filter: walk its rows
        dom = np.flatnonzero(ok)
        lex, prior, every = lex[dom], (prior[dom] if rw > 0.0 else None), True
        commits = None if commits is None else commits[dom]

    def pre(at: Any) -> np.ndarray:
        if rw <= 0.0:
            return lex[at]
        return fuse(lex[at], None, None, prior[at], p, commits=None if commits is None else commits[at])

    sample = pre(slice(None, None, SAMPLE_STRIDE))
    if not every:
        sample = sample[ok[::SAMPLE_STRIDE]]
    sample = sample[sample > 0.0]
    t = np.partition(sample, sample.size - depth)[sample.size - depth] if sample.size >= depth else None
    if t is None:
        hit = lex > 0.0
    else:
        scaled = lex >= t / (1.0 + rw) * (1.0 - 1e-9)     # pre <= lex x (1 + rw): multiplied, and a note's
        if rw > 0.0 and p.recency_form == "add":          # a commit's added prior: pre <= lex + rw
            noted = None if p.note_prior != "first" or commits is None else ~commits
            if noted is None or not noted.any():
                hit = lex >= (t - rw) - 1e-9 * (t + rw)
            elif not noted.all():
                hit = np.where(noted, scaled, lex >= (t - rw) - 1e-9 * (t + rw))
            else:
                hit = scaled      # every row a note: the tighter bound alone (far fewer rows get a `pre`)
        else:
            hit = scaled
    rows = np.flatnonzero(hit if every else hit & ok)
    if t is not None:
        rows = rows[pre(rows) >= t]
    return rows if dom is None else dom[rows]


def _union(*parts: np.ndarray) -> np.ndarray:
    """The sorted distinct rows of `parts` (np.unique is several times slower on a few thousand)."""
    rows = np.sort(np.concatenate(parts))
    return rows[np.concatenate(([True], rows[1:] != rows[:-1]))] if rows.size else rows


class LaneHybrid:
    """Ranker-mode search of one store (see the module docstring)."""

    def __init__(self, store: Any, engine: LaneSearch, params: LexicalParams | None = None) -> None:
        """`engine` is the lane's LaneSearch (floors, type weights, feedback)."""
        self.store, self.engine = store, engine
        self.params = params or LANE
        self.lexical = LexicalLayer.for_store(store)
        self.priors = PriorCache()

    def run(self, query: str, resolution: Resolution, *, top_k: int, exclude: Collection[str] = (),
            filters: dict[str, Any] | None = None, paths: tuple[str, ...] = ()) -> LaneResult:
        """Search with a resolved query; an ambiguous mention searches all its readings."""
        intents = detect_intents(query)
        intent_names = tuple(sorted(t.value for t in intents))
        slugs = sorted(set(resolution.slugs) | {c for a in resolution.ambiguous for c in a.candidates})
        flt_args = dict(filters or {})
        where = dict(flt_args.pop("where_metadata", None) or {})
        explicit = any(flt_args.values()) or bool(where)
        if slugs and "entity_slugs" not in where:
            where["entity_slugs"] = slugs
        mode = "entity" if "entity_slugs" in where or paths else "semantic"
        floors = self.engine.floors
        floor = None if explicit else (floors.entity if mode == "entity" else floors.semantic)
        flt = self.store.memories.filter(where_metadata=where or None, **flt_args)
        feats = self.features(query, flt, paths, self.params, depth=DEPTH + len(exclude))
        hits = self._ranked(query, feats, floor, intents, top_k, set(exclude)) if top_k > 0 else []
        return LaneResult(query, tuple(hits), mode, tuple(slugs), intent_names, floor, resolution.ambiguous,
                          resolution.unknown)

    def features(self, query: str, flt: Any, paths: tuple[str, ...], p: LexicalParams,
                 depth: int | None = None) -> Features:
        """The candidates inside the store filter `flt` and their relevance parts (`lane_features`); with
        `depth`, only those that can be among the `depth` most relevant of their tier."""
        allowed = None if flt.empty else self.store.memories.candidates(flt)
        return lane_features(self.lexical, query, p, allowed, near_keys(self.store, paths), depth, self.priors)

    # -- steps 3 and 4 ------------------------------------------------------------------------
    def _ranked(self, query: str, ft: Features, floor: float | None, intents: frozenset, top_k: int,
                exclude: set[str]) -> list[LaneHit]:
        keep = np.ones(ft.rows.size, dtype=bool)
        if floor is not None:
            keep &= ((ft.lexical > 0) | (ft.shared > 0) | (ft.named > 0) | ft.entity
                     | ((ft.raw_cosine >= floor) & (ft.raw_cosine > 0)))
        idx = np.flatnonzero(keep)
        if idx.size == 0:
            return []
        p = self.params
        prior = self.priors.of(self.lexical.index, ft.n_rows, p.recency_scale) if p.recency_weight > 0.0 else None
        rel = ft.relevance(p, prior)[idx]
        tier = ft.entity[idx]
        cut = np.concatenate([_best(rel, np.flatnonzero(tier), DEPTH + len(exclude)),
                              _best(rel, np.flatnonzero(~tier), DEPTH + len(exclude))])
        rows = ft.rows[idx[cut]]
        ids_of = self.lexical.index.ids
        if exclude:   # memories injected in the session leave now (DEPTH + their number were kept per tier)
            ok = np.asarray([ids_of[r] not in exclude for r in rows.tolist()], dtype=bool)
            cut, rows = cut[ok], rows[ok]
            if cut.size == 0:
                return []
        tracker = self.store.tracker
        keys = self.lexical.hashes_of(rows)   # the ids' hash_fn values, kept by the index
        conn = tracker.conn()
        final, factor = self.engine._final(conn, keys, rel[cut], intents, self.engine.feedback.all_states(conn))
        order = _first(tier[cut], final, lambda j: ids_of[rows[j]], top_k)
        entries = tracker.memories.get_many(conn, [int(keys[j]) for j in order])
        # each hit's similarity is its cosine, also outside the vector pool the first stage took
        qvec = self.lexical.query_vector(query)
        sims = np.nan_to_num(np.asarray(self.store.memories.vectors.scores(qvec, keys[order]), dtype=np.float64))
        return [self.engine._hit(entries[int(keys[j])], float(final[j]), float(sim), intents, float(factor[j]),
                                 relevance=float(rel[cut[j]]))
                for j, sim in zip(order, sims.tolist()) if int(keys[j]) in entries]


def _first(tier: np.ndarray, final: np.ndarray, id_of: Any, k: int) -> list[int]:
    """The `k` first positions by working-path tier, then final score (both descending), then id (`id_of`):
    numpy orders by the two numbers; only the ones tied with the k-th on both are then ordered by id."""
    order = np.lexsort((-final, ~tier))
    end = min(k, order.size)
    if 0 < end < order.size:
        last = order[end - 1]
        while end < order.size and tier[order[end]] == tier[last] and final[order[end]] == final[last]:
            end += 1
    return sorted(order[:end].tolist(), key=lambda j: (-int(tier[j]), -float(final[j]), id_of(j)))[:k]


def _best(score: np.ndarray, among: np.ndarray, k: int) -> np.ndarray:
    """The `k` positions of `among` with the best `score`, with every one tied with the k-th."""
    if among.size <= k:
        return among
    s = score[among]
    sample = s[::16]
    if sample.size > k:   # the k-th best of every 16th is never above the k-th best: partition only those above it
        near = s >= np.partition(sample, sample.size - k)[sample.size - k]
        among, s = among[near], s[near]
    kth = -np.partition(-s, k - 1)[k - 1]
    return among[s >= kth]


__all__ = ["DEPTH", "LANE", "Features", "LaneHybrid", "PriorCache", "lane_features"]
