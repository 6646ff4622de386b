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
   form "add"). `LANE` holds the weights, fitted on the calibration split (`python3 -m bench.calibrate_lane`).
3. **Floor.** A candidate with keyword or shared-file evidence passes; one
   found by the embedder alone must reach the seed's semantic floor (the
   entity floor inside an entity filter). As in search.py, an explicit
   structured filter vouches for its candidates and lifts the floor.
4. **Re-rank** `final = relevance * type_weight * intent_boost * feedback_factor`
   (seed 004 Phase 3) over the `DEPTH` most relevant candidates of each tier,
   best first, ties by id; memories injected in the session are left out.

`features` exposes step 2's parts so that the calibration can fit `LANE` from
one replay.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import numpy as np

from reference.lane.intent import detect_intents
from reference.lane.paths import near_keys
from reference.lane.resolver import Resolution
from reference.lane.search import LaneHit, LaneResult, LaneSearch
from reference.lexical.expansion import expand, named_files, spread
from reference.lexical.layer import LexicalLayer
from reference.lexical.params import TUNED, LexicalParams
from reference.lexical.ranking import first_stage, with_prior
from reference.lexical.recency import recency_prior

# fitted by `python3 -m bench.calibrate_lane` on the calibration split (it prints the grid and the choice);
# k1, b and the corpus stop-word share are the lexical index's own (`TUNED`, bench/calibrate_lexical.py);
# the prior added, the form these weights were fitted in (only bench/calibrate_lexical.py fits the form)
LANE = TUNED.with_(vector_weight=0.1, expand_top=8, expand_weight=1.5, expand_norm=0.5, recency_weight=1.2,
                   recency_scale=20.0, recency_form="add")
DEPTH = 100   # candidates of each tier the factors re-rank (set a priori; the factors lie in [0.2, 1.27])


@dataclass(frozen=True)
class Features:
    """Candidates (lexical index rows) and their relevance parts; `entity`: in the working-path (near) set.

    `lexical`, `cosine`, `shared`, `named` are the lexical pipeline's normalised BM25, cosine, expansion and
    named-file expansion at those rows; `raw_cosine` the cosine itself (0 outside the vector pool); `n_rows`
    the index's rows then and `ticks` their write-time ticks (the recency prior counts from the newest)."""

    rows: np.ndarray
    lexical: np.ndarray
    cosine: np.ndarray
    shared: np.ndarray
    raw_cosine: np.ndarray
    entity: np.ndarray
    n_rows: int
    named: np.ndarray
    ticks: np.ndarray

    def relevance(self, p: LexicalParams) -> np.ndarray:
        """The lexical pipeline's score of each candidate under `p` (`ranking.fuse`, as `hybrid_scores`)."""
        rel = self.lexical + p.vector_weight * self.cosine + p.expand_weight * self.shared + p.named_weight * self.named
        if p.recency_weight > 0.0:
            rel = with_prior(rel, recency_prior(self.n_rows, p.recency_scale, self.ticks)[self.rows], p)
        return rel


def _fit(mask: np.ndarray | None, n: int) -> np.ndarray:
    """A bool mask by row cut or padded (False) to `n` rows (the index may have grown since it was made)."""
    if mask is None:
        return np.ones(n, dtype=bool)
    return mask[:n] if mask.size >= n else np.concatenate([mask, np.zeros(n - mask.size, dtype=bool)])


def lane_features(layer: LexicalLayer, query: str, p: LexicalParams, allowed: np.ndarray | None,
                  near: np.ndarray | None) -> Features:
    """Step 2's parts for the memories among the sorted key hashes `allowed` (None: all) that have keyword,
    cosine or shared-file evidence, or are in `near` (sorted key hashes, e.g. the working paths' memories)."""
    vector = layer.vector(query, allowed) if p.vector_weight > 0.0 else None
    allowed_rows = layer.allowed_rows(allowed)
    index = layer.index
    lex = first_stage(index, query, p.with_(vector_weight=0.0))      # normalised code-aware BM25
    n = lex.size
    mask = _fit(index.alive(), n) & _fit(allowed_rows, n)
    cos, raw = np.zeros(n), np.zeros(n)
    if vector is not None:
        rows, c = vector
        keep = (rows < n) & (c > 0)
        rows, c = rows[keep], c[keep]
        raw[rows] = c
        if c.size:
            cos[rows] = c / c.max()
    first = lex + p.vector_weight * cos
    shared = expand(index, first, p.expand_top, mask, p.expand_norm) if p.expand_top > 0 else np.zeros(n)
    named = spread(index, named_files(index, query, p.named_top), n) if p.named_top > 0 else np.zeros(n)
    entity = np.zeros(n, dtype=bool)
    if near is not None and near.size:
        near_rows, _ = layer.rows_of([(k, 0.0) for k in near.tolist()])
        entity[near_rows[near_rows < n]] = True
        entity &= mask
    rows = np.flatnonzero(mask & ((lex > 0) | (cos > 0) | (shared > 0) | (named > 0) | entity))
    return Features(rows, lex[rows], cos[rows], shared[rows], raw[rows], entity[rows], n, named[rows],
                    index.ticks()[:n])


class LaneHybrid:
    """Ranker-mode search of one store (see the module docstring)."""

    def __init__(self, store: Any, engine: LaneSearch, params: LexicalParams | None = None) -> None:
        """`engine` is the lane's LaneSearch (floors, type weights, feedback)."""
        self.store, self.engine = store, engine
        self.params = params or LANE
        self.lexical = LexicalLayer.for_store(store)

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
        feats = self.features(query, flt, paths, self.params)
        hits = self._ranked(query, feats, floor, intents, top_k, set(exclude)) if top_k > 0 else []
        return LaneResult(query, tuple(hits), mode, tuple(slugs), intent_names, floor, resolution.ambiguous,
                          resolution.unknown)

    def features(self, query: str, flt: Any, paths: tuple[str, ...], p: LexicalParams) -> Features:
        """The candidates inside the store filter `flt` and their relevance parts (`lane_features`)."""
        allowed = None if flt.empty else self.store.memories.candidates(flt)
        return lane_features(self.lexical, query, p, allowed, near_keys(self.store, paths))

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
        rel = ft.relevance(self.params)[idx]
        tier = ft.entity[idx]
        cut = np.concatenate([_best(rel, np.flatnonzero(tier), DEPTH + len(exclude)),
                              _best(rel, np.flatnonzero(~tier), DEPTH + len(exclude))])
        ids = [self.lexical.index.ids[int(r)] for r in ft.rows[idx[cut]]]
        ok = [i for i, m in enumerate(ids) if m not in exclude]
        if not ok:
            return []
        cut, ids = cut[ok], [ids[i] for i in ok]
        tracker = self.store.tracker
        keys = self.lexical.hashes_of(ft.rows[idx[cut]])   # the ids' hash_fn values, kept by the index
        conn = tracker.conn()
        final, factor = self.engine._final(conn, keys, rel[cut], intents, self.engine.feedback.all_states(conn))
        order = sorted(range(cut.size), key=lambda j: (-int(tier[cut[j]]), -float(final[j]), ids[j]))[:top_k]
        entries = tracker.memories.get_many(conn, [int(keys[j]) for j in order])
        # each hit's similarity is its cosine, also outside the vector pool the first stage took
        qvec = self.lexical.query_vector(query)
        sims = np.nan_to_num(np.asarray(self.store.memories.vectors.scores(qvec, keys[order]), dtype=np.float64))
        return [dataclasses.replace(self.engine._hit(entries[int(keys[j])], float(final[j]), float(sim), intents,
                                                     float(factor[j])), relevance=float(rel[cut[j]]))
                for j, sim in zip(order, sims.tolist()) if int(keys[j]) in entries]


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


__all__ = ["DEPTH", "LANE", "Features", "LaneHybrid", "lane_features"]
