"""The dual retrieval engine (seed 004 §4.3-4.4): entity filter or semantic search, then re-ranking.

1. Entities: the caller's explicit slugs, else the resolver's reading of the
   query against the slugs the store knows.
2. With entities, candidates are the memories whose `metadata.entity_slugs`
   holds one of them (strictly), ranked by cosine, floor `entity`. Without,
   every memory is a candidate (pure semantic search), floor `semantic`.
   The caller's structured filters (task, context, insights, tags,
   where_metadata; seed 000 §4.3) apply in both modes, and when the caller
   gives one no floor applies: the seed's floors guard an open search and the
   resolver's guess, while an explicit filter is the caller vouching for
   every candidate (so Memory Lane, like the store's own filtered search,
   ranks them all; the seed is silent on seed 000's filters).
3. Each candidate at or above the floor (with a floor: and a positive
   cosine) gets `final = cosine * type_weight * intent_boost *
   feedback_factor`, a negative cosine counting as 0 so that the weights
   never invert an order; ties break by id. Memories listed in `exclude`
   (already injected in the session) are left out.

Candidates come from the vector cache's top-k (a few times k, see
`LaneSearch._best_few`) when a bound proves no other can reach the top k,
else from one pass over every candidate's vector. Each one's type comes from
the store's label index (metadata `memory_type`), its feedback factor from
the feedback table (only memories with feedback have a row), so no
per-candidate row is read; only the top k (and any tie with the k-th) are
then read whole.
"""
from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from reference.lane import metadata as lane_meta
from reference.lane.feedback import FeedbackTable
from reference.lane.intent import detect_intents, intent_boost
from reference.lane.resolver import Ambiguity, Resolution
from reference.lane.scoring import Floors
from reference.lane.taxonomy import MemoryType, type_weight
from reference.memories.record import MemoryEntry
from reference.vectors.search import KIND_TAGS

MEMORY_TAG = KIND_TAGS["memory"]

MODES = ("entity", "semantic", "clarification")


@dataclass(frozen=True)
class LaneHit:
    """One re-ranked memory with every factor of its final score."""

    id: str
    score: float
    similarity: float
    memory_type: MemoryType
    type_weight: float
    intent_boost: float
    feedback_factor: float
    entity_slugs: tuple[str, ...]
    entry: MemoryEntry = field(compare=False, repr=False)
    relevance: float | None = None   # ranker mode (hybrid.py): the fused relevance the factors multiply

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "score": self.score, "similarity": self.similarity,
                "memory_type": self.memory_type.value, "type_weight": self.type_weight,
                "intent_boost": self.intent_boost, "feedback_factor": self.feedback_factor,
                "entity_slugs": list(self.entity_slugs), "text": self.entry.text,
                **({} if self.relevance is None else {"relevance": self.relevance})}


@dataclass(frozen=True)
class LaneResult:
    """What a Memory Lane search found, and how it read the query."""

    query: str
    hits: tuple[LaneHit, ...]
    mode: str
    entities: tuple[str, ...] = ()
    intents: tuple[str, ...] = ()
    floor: float | None = None
    ambiguous: tuple[Ambiguity, ...] = ()
    unknown_entities: tuple[str, ...] = ()

    @property
    def clarification_required(self) -> bool:
        return self.mode == "clarification"

    @property
    def ids(self) -> list[str]:
        return [h.id for h in self.hits]

    def to_dict(self) -> dict[str, Any]:
        return {"query": self.query, "mode": self.mode, "clarification_required": self.clarification_required,
                "candidates": {a.mention: list(a.candidates) for a in self.ambiguous},
                "entities": list(self.entities), "intents": list(self.intents), "floor": self.floor,
                "unknown_entities": list(self.unknown_entities), "results": [h.to_dict() for h in self.hits]}


class LaneSearch:
    """Runs one Memory Lane search over a store's memories."""

    def __init__(self, store: Any, floors: Floors, feedback: FeedbackTable) -> None:
        self.store, self.floors, self.feedback = store, floors, feedback

    def run(self, query: str, resolution: Resolution, *, top_k: int, exclude: Collection[str] = (),
            clarify: bool = True, filters: dict[str, Any] | None = None) -> LaneResult:
        """Search with an already resolved query. `clarify=False` reads an ambiguous mention as
        all of its candidates instead of stopping for clarification."""
        intents = detect_intents(query)
        intent_names = tuple(sorted(t.value for t in intents))
        slugs = list(resolution.slugs)
        if resolution.ambiguous:
            if clarify:
                return LaneResult(query, (), "clarification", tuple(slugs), intent_names, None,
                                  resolution.ambiguous, resolution.unknown)
            slugs += [c for a in resolution.ambiguous for c in a.candidates]
        flt_args = dict(filters or {})
        where = dict(flt_args.pop("where_metadata", None) or {})
        if slugs and "entity_slugs" not in where:
            where["entity_slugs"] = sorted(set(slugs))
        mode = "entity" if "entity_slugs" in where else "semantic"
        floor: float | None = self.floors.entity if mode == "entity" else self.floors.semantic
        if any(flt_args.values()) or filters and filters.get("where_metadata"):
            floor = None
        flt = self.store.memories.filter(where_metadata=where or None, **flt_args)
        hits = self._ranked(query, flt, floor, intents, top_k, set(exclude))
        return LaneResult(query, tuple(hits), mode, tuple(sorted(set(slugs))), intent_names, floor,
                          resolution.ambiguous if not clarify else (), resolution.unknown)

    def _ranked(self, query: str, flt: Any, floor: float | None, intents: frozenset[MemoryType], top_k: int,
                exclude: set[str]) -> list[LaneHit]:
        if top_k <= 0:
            return []
        store, conn = self.store, self.store.tracker.conn()
        qvec = store.memories.embed_query(query)
        allowed = None
        if not flt.empty:
            allowed = store.memories.candidates(flt)
            if allowed.size == 0:
                return []
        ex = np.asarray([store.tracker.hash_fn(m) for m in exclude], dtype=np.uint64) if exclude else None
        states = self.feedback.all_states(conn)
        found = self._best_few(conn, qvec, allowed, floor, ex, intents, states, top_k)
        if found is None:  # every candidate scored in one pass and weighed (type, intent, feedback) at once
            keys, cosines = store.vectors.scan(qvec, allowed, tags=None if allowed is not None else [MEMORY_TAG])
            c = cosines.astype(np.float64)
            idx = _kept(keys, c, floor, ex)
            final, factor = np.zeros(keys.size), np.ones(keys.size)
            final[idx], factor[idx] = self._final(conn, keys[idx], c[idx], intents, states)
        else:
            keys, c, idx, final, factor = found
        if idx.size == 0:
            return []
        # the top_k plus every memory tied with the k-th (ties go by id, which needs the rows)
        if idx.size > top_k:
            kth = np.partition(final[idx], idx.size - top_k)[idx.size - top_k]
            idx = idx[final[idx] >= kth]
        entries = store.tracker.memories.get_many(conn, [int(k) for k in keys[idx]])
        ranked = sorted(((float(final[i]), entries[int(keys[i])].id, i) for i in idx
                         if int(keys[i]) in entries and entries[int(keys[i])].id not in exclude),
                        key=lambda x: (-x[0], x[1]))[:top_k]
        return [self._hit(entries[int(keys[i])], f, float(c[i]), intents, float(factor[i])) for f, _, i in ranked]

    def _best_few(self, conn: Any, qvec: np.ndarray, allowed: np.ndarray | None, floor: float | None,
                  ex: np.ndarray | None, intents: frozenset[MemoryType], states: list, top_k: int
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
        """(keys, cosines, kept positions, final scores, feedback factors) of the candidates that can
        reach the top k, from the vector top-k alone; None when every candidate must be weighed.

        Only the best few by cosine are asked for (plus as many as are excluded, plus ties with
        the last). They hold every candidate that passes when the cache has no more, or when the
        floor already fails inside them (cosines come best first, so every other one fails it
        too). Otherwise every other candidate has a cosine at most the few's lowest, so its final
        score is at most that cosine times the largest weights of the types stored; when that
        bound is below the k-th final score of the few (strictly: no tie either), the few hold
        the whole answer. Rounding is monotone, so the bound computed in the same order really
        bounds the computed scores.
        """
        few = 4 * top_k + 16
        want = few + (0 if ex is None else ex.size)
        pairs = self.store.vectors.topk(qvec, want, allowed, tags=None if allowed is not None else [MEMORY_TAG],
                                        with_ties=True)
        keys = np.fromiter((k for k, _ in pairs), dtype=np.uint64, count=len(pairs))
        c = np.fromiter((s for _, s in pairs), dtype=np.float64, count=len(pairs))
        idx = _kept(keys, c, floor, ex)
        final, factor = np.zeros(keys.size), np.ones(keys.size)
        every = len(pairs) < want or (floor is not None and not (c[-1] >= floor and c[-1] > 0))
        if idx.size:
            final[idx], factor[idx] = self._final(conn, keys[idx], c[idx], intents, states)
        if every:
            return keys, c, idx, final, factor
        # here every pair passed the floor, and at most ex.size were excluded: idx holds at least `few`
        kth = np.partition(final[idx], idx.size - top_k)[idx.size - top_k]
        types = [lane_meta.DEFAULT_TYPE] + [t for t, rows in self._typed(conn).items() if rows.size]  # types stored
        bound = (max(float(c[-1]), 0.0) * max(type_weight(t) for t in types)
                 * max(intent_boost(t, intents) for t in types) * max([1.0] + [st.factor for st in states]))
        return (keys, c, idx, final, factor) if bound < kth else None

    def _final(self, conn: Any, keys: np.ndarray, c: np.ndarray, intents: frozenset[MemoryType],
               states: list) -> tuple[np.ndarray, np.ndarray]:
        """(final score, feedback factor) of each key: seed 004's product, in final_score's order."""
        store = self.store
        tw = np.full(keys.size, type_weight(lane_meta.DEFAULT_TYPE))
        ib = np.full(keys.size, intent_boost(lane_meta.DEFAULT_TYPE, intents))
        for t, labelled in self._typed(conn).items():
            typed = _members(keys, labelled)
            tw[typed], ib[typed] = type_weight(t), intent_boost(t, intents)
        factor = np.ones(keys.size)
        if states:
            fb = np.asarray([store.tracker.hash_fn(st.memory_id) for st in states], dtype=np.uint64)
            order = np.argsort(keys, kind="stable")
            pos = np.searchsorted(keys[order], fb)
            ok = pos < keys.size
            ok[ok] = keys[order[pos[ok]]] == fb[ok]
            factor[order[pos[ok]]] = [st.factor for st, y in zip(states, ok) if y]
        return np.maximum(c, 0.0) * tw * ib * factor, factor

    def _typed(self, conn: Any) -> dict[MemoryType, np.ndarray]:
        """Key hashes (sorted) of the memories of each type other than the default, from the label index."""
        types = [t for t in MemoryType if t is not lane_meta.DEFAULT_TYPE]
        rows = self.store.memories.filter_index.labelled_many(conn, [("str", "memory_type", t.value) for t in types])
        return dict(zip(types, rows))

    @staticmethod
    def _hit(entry: MemoryEntry, final: float, cosine: float, intents: frozenset[MemoryType], factor: float,
             relevance: float | None = None) -> LaneHit:
        fields = lane_meta.read(entry.metadata)
        return LaneHit(entry.id, final, cosine, fields.memory_type, type_weight(fields.memory_type),
                       intent_boost(fields.memory_type, intents), factor, fields.entity_slugs, entry, relevance)


def _kept(keys: np.ndarray, c: np.ndarray, floor: float | None, ex: np.ndarray | None) -> np.ndarray:
    """Positions of the candidates at or above the floor (and positive), not excluded."""
    keep = np.ones(keys.size, dtype=bool)
    if floor is not None:
        keep &= (c >= floor) & (c > 0)
    if ex is not None:
        keep &= ~np.isin(keys, ex)
    return np.flatnonzero(keep)


def _members(keys: np.ndarray, sorted_set: np.ndarray) -> np.ndarray:
    """Mask of `keys` (any order) present in `sorted_set` (sorted uint64)."""
    if sorted_set.size == 0:
        return np.zeros(keys.size, dtype=bool)
    pos = np.minimum(np.searchsorted(sorted_set, keys), sorted_set.size - 1)
    return sorted_set[pos] == keys
