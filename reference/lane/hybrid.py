"""Memory Lane's ranker-mode search: seed 004's dual search over a keyword + semantic first stage.

The seed's steps, each kept:

1. **Entities.** The query's (explicit slugs, paths, known names: resolver.py)
   filter strictly, as the seed says. The agent's **working paths** (the files
   it has open, passed with the query) are path-based entities too (Phase 4):
   the memories that touched one of those files, or carry a slug one of them
   implies, come first, and the open search fills the list below them (a
   working file says what the agent is near, not that nothing else may count).
2. **Rank** each candidate set by relevance: the first stage's bm25 and
   cosine (first_stage.py), plus the weight of the files it shares with the
   best first-stage hits and with the working paths (files.py, expansion),
   plus a recency prior exp(-ago / half_life) (recency.py), each part scaled
   to [0, 1] over the candidates (recency is already) and summed with the
   weights in `Fusion` (fitted on the calibration split, bench/calibrate_lane.py).
3. **Floor.** A candidate with keyword or shared-file evidence passes; one
   found by the embedder alone must reach the seed's semantic floor (the
   entity floor inside an entity filter). As in search.py, an explicit
   structured filter vouches for its candidates and lifts the floor.
4. **Re-rank** `final = relevance * type_weight * intent_boost * feedback_factor`
   (seed 004 Phase 3), best first, ties by id; memories injected in the
   session are left out.

`features` exposes step 2's inputs so that the calibration can fit `Fusion`
from one replay.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import numpy as np

from reference.lane.entities import slugs_from_paths
from reference.lane.files import FileHolders, expansion, files_of
from reference.lane.first_stage import FirstStage, StoreHybridStage
from reference.lane.recency import WriteOrder
from reference.lane.resolver import Resolution
from reference.lane.search import LaneHit, LaneResult, LaneSearch
from reference.lane.intent import detect_intents


@dataclass(frozen=True)
class Fusion:
    """Weights of the relevance parts (bm25 has weight 1) and the first stage's sizes.

    Values: `python3 -m bench.calibrate_lane` on the calibration split (it prints the grid and the choice)."""

    semantic: float = 0.3
    expansion: float = 2.5
    recency: float = 1.2
    half_life: float = 25.0    # memories written since, at which the prior has fallen to 1/e
    depth: int = 100           # each first-stage list's length (set a priori)
    seeds: int = 8             # best first-stage hits whose files are expanded (set a priori)
    max_share: float = 1.0     # a file touched by more than this share of the memories is a hub: not expanded
    # (calibration chose 1.0: no file is cut, idf alone discounts the common ones)
    max_holders: int = 1000    # nor one touched by more memories than this: a cost bound, set a priori (no
    #                            calibration file comes near it: the largest history has 1,822 memories)


FUSION = Fusion()


@dataclass(frozen=True)
class Features:
    """Candidates and their relevance parts, each in [0, 1]; `entity`: in the entity (or working-path) set."""

    keys: np.ndarray
    lexical: np.ndarray
    cosine: np.ndarray
    shared: np.ndarray
    ago: np.ndarray
    raw_cosine: np.ndarray
    entity: np.ndarray

    def relevance(self, f: Fusion) -> np.ndarray:
        prior = np.exp(-self.ago / f.half_life) if f.half_life > 0 else np.zeros(self.keys.size)
        return self.lexical + f.semantic * self.cosine + f.expansion * self.shared + f.recency * prior


def _scaled(x: np.ndarray) -> np.ndarray:
    top = float(x.max()) if x.size else 0.0
    return x / top if top > 0 else np.zeros(x.size)


class LaneHybrid:
    """Ranker-mode search of one store (see the module docstring)."""

    def __init__(self, store: Any, engine: LaneSearch | None, first_stage: FirstStage | None = None,
                 fusion: Fusion | None = None) -> None:
        """`engine` (the lane's LaneSearch: floors, type weights, feedback) is needed by `run`; `features`
        alone works without it (the project layer's branch ranking)."""
        self.store, self.engine = store, engine
        self.first_stage = first_stage or StoreHybridStage(store)
        self.fusion = fusion or FUSION
        self.files = FileHolders(store)
        self.order = WriteOrder(store)

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
        feats = self.features(query, flt, paths, self.fusion)
        hits = self._ranked(feats, floor, intents, top_k, set(exclude)) if top_k > 0 else []
        return LaneResult(query, tuple(hits), mode, tuple(slugs), intent_names, floor, resolution.ambiguous,
                          resolution.unknown)

    # -- step 2: the candidates and their relevance parts ------------------------------------
    def features(self, query: str, flt: Any, paths: tuple[str, ...], f: Fusion,
                 allowed: np.ndarray | None = None, near: np.ndarray | None = None) -> Features:
        """The candidates inside `flt` (or, with `flt` None, inside the sorted key hashes `allowed`).

        `near` (sorted key hashes) replaces the working paths' entity set: searched on its own too,
        and flagged in `Features.entity` (the project layer passes the asked branch's memories)."""
        store = self.store
        qvec = store.memories.embed_query(query)
        if flt is not None:
            allowed = None if flt.empty else store.memories.candidates(flt)
        if near is None:
            near = self._near(paths, allowed)
        elif allowed is not None:
            near = np.intersect1d(near, allowed, assume_unique=True)
        ev = self.first_stage.gather(query, qvec, allowed, f.depth)
        if near is not None and near.size:   # the working-path set is searched on its own too, so it is complete
            inner = self.first_stage.gather(query, qvec, near, f.depth)
            keys = np.union1d(ev.keys, inner.keys)
            lex = np.zeros(keys.size)
            cos = np.zeros(keys.size)
            for part in (ev, inner):
                pos = np.searchsorted(keys, part.keys)
                lex[pos] = np.maximum(lex[pos], part.lexical)
                cos[pos] = part.cosine
            ev_keys, ev_lex, ev_cos = keys, lex, cos
        else:
            ev_keys, ev_lex, ev_cos = ev.keys, ev.lexical, ev.cosine
        first = _scaled(ev_lex) + f.semantic * _scaled(np.maximum(ev_cos, 0.0))
        shared = self._shared(ev_keys, first, paths, f, allowed)
        keys = np.union1d(ev_keys, np.fromiter(shared.keys(), dtype=np.uint64, count=len(shared)))
        lex, cos = np.zeros(keys.size), np.zeros(keys.size)
        pos = np.searchsorted(keys, ev_keys)
        lex[pos], cos[pos] = ev_lex, ev_cos
        new = np.ones(keys.size, dtype=bool)
        new[pos] = False
        if new.any():
            cos[new] = self.first_stage.cosines(qvec, keys[new])
        get = shared.get
        sh = np.fromiter((get(k, 0.0) for k in keys.tolist()), dtype=np.float64, count=keys.size)
        entity = np.zeros(keys.size, dtype=bool) if near is None else np.isin(keys, near)
        return Features(keys, _scaled(lex), _scaled(np.maximum(cos, 0.0)), _scaled(sh), self.order.ago(keys),
                        cos, entity)

    def _near(self, paths: tuple[str, ...], allowed: np.ndarray | None) -> np.ndarray | None:
        """The working-path entity set inside `allowed` (None without paths)."""
        if not paths:
            return None
        near = self.files.touching(paths)
        slugs = slugs_from_paths(paths)
        if slugs:
            flt = self.store.memories.filter(where_metadata={"entity_slugs": slugs})
            near = np.union1d(near, self.store.memories.candidates(flt))
        return near if allowed is None else np.intersect1d(near, allowed, assume_unique=True)

    def _shared(self, keys: np.ndarray, first: np.ndarray, paths: tuple[str, ...], f: Fusion,
                allowed: np.ndarray | None) -> dict[int, float]:
        """Expansion through the files of the best first-stage hits and the working paths (files.py)."""
        if keys.size == 0 and not paths:
            return {}
        best = np.argsort(-first, kind="stable")[: f.seeds]
        best = best[first[best] > 0]
        conn = self.store.tracker.conn()
        rows = self.store.tracker.memories.get_many(conn, [int(k) for k in keys[best]])
        top = float(first[best[0]]) if best.size else 1.0
        seeds = [(float(first[i]) / top, files_of(rows[int(keys[i])].metadata)) for i in best.tolist()
                 if int(keys[i]) in rows]
        if paths:
            seeds.append((1.0, list(paths)))
        files = {p for _, fs in seeds for p in fs}
        total = self._count(conn)
        out = expansion(seeds, self.files.holders(files), total, f.max_share, f.max_holders)
        if allowed is not None and out:
            ks = np.fromiter(out.keys(), dtype=np.uint64, count=len(out))
            ok = set(np.intersect1d(ks, allowed).tolist())
            out = {k: v for k, v in out.items() if k in ok}
        return out

    def _count(self, conn: Any) -> int:
        """How many memories the store holds, from the label index (no table scan)."""
        return int(self.store.memories.filter_index.labelled_many(conn, [("all",)])[0].size)

    # -- steps 3 and 4 ------------------------------------------------------------------------
    def _ranked(self, ft: Features, floor: float | None, intents: frozenset, top_k: int,
                exclude: set[str]) -> list[LaneHit]:
        if ft.keys.size == 0:
            return []
        keep = np.ones(ft.keys.size, dtype=bool)
        if floor is not None:
            keep &= (ft.lexical > 0) | (ft.shared > 0) | (ft.entity) | ((ft.raw_cosine >= floor) & (ft.raw_cosine > 0))
        if exclude:
            ex = np.asarray([self.store.tracker.hash_fn(m) for m in exclude], dtype=np.uint64)
            keep &= ~np.isin(ft.keys, ex)
        idx = np.flatnonzero(keep)
        if idx.size == 0:
            return []
        conn = self.store.tracker.conn()
        states = self.engine.feedback.all_states(conn)
        rel = ft.relevance(self.fusion)
        final, factor = self.engine._final(conn, ft.keys[idx], rel[idx], intents, states)
        tier = ft.entity[idx].astype(np.float64)    # working-path entities first, then the rest
        order = np.lexsort((-final, -tier))
        # the top_k plus every memory tied with the k-th (ties go by id, which needs the rows)
        cut = order[: top_k]
        if order.size > top_k:
            last = order[top_k - 1]
            tied = order[(final[order] == final[last]) & (tier[order] == tier[last])]
            cut = np.union1d(cut, tied)
        entries = self.store.tracker.memories.get_many(conn, [int(ft.keys[idx[j]]) for j in cut])
        ranked = sorted(((-float(tier[j]), -float(final[j]), entries[int(ft.keys[idx[j]])].id, j) for j in cut
                         if int(ft.keys[idx[j]]) in entries), key=lambda x: (x[0], x[1], x[2]))[:top_k]
        return [dataclasses.replace(self.engine._hit(entries[int(ft.keys[idx[j]])], float(final[j]),
                                                     float(ft.raw_cosine[idx[j]]), intents, float(factor[j])),
                                    relevance=float(rel[idx[j]]))
                for _, _, _, j in ranked]


__all__ = ["FUSION", "Features", "Fusion", "LaneHybrid"]
