"""The dual retrieval engine (seed 004 §4.3-4.4): entity filter or semantic search, then re-ranking.

1. Entities: the caller's explicit slugs, else the resolver's reading of the
   query against the slugs the store knows.
2. With entities, candidates are the memories whose `metadata.entity_slugs`
   holds one of them (strictly), ranked by cosine, floor `entity`. Without,
   every memory is a candidate (pure semantic search), floor `semantic`.
   The structured filters (task, context, insights, tags, where_metadata)
   apply in both modes.
3. Each candidate at or above the floor (and with a positive cosine) gets
   `final = cosine * type_weight * intent_boost * feedback_factor`; ties
   break by id. Memories listed in `exclude` (already injected in the
   session) are left out.

Candidates are fetched in growing batches until the k-th final score beats
what any unfetched candidate could reach (its cosine times MAX_MULTIPLIER), so
the top k equals re-ranking every candidate.
"""
from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from reference.lane import metadata as lane_meta
from reference.lane.feedback import FeedbackState, FeedbackTable
from reference.lane.intent import detect_intents, intent_boost
from reference.lane.resolver import Ambiguity, Resolution
from reference.lane.scoring import MAX_MULTIPLIER, Floors, final_score
from reference.lane.taxonomy import MemoryType, type_weight
from reference.memory_record import MemoryEntry, SearchHit

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

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "score": self.score, "similarity": self.similarity,
                "memory_type": self.memory_type.value, "type_weight": self.type_weight,
                "intent_boost": self.intent_boost, "feedback_factor": self.feedback_factor,
                "entity_slugs": list(self.entity_slugs), "text": self.entry.text}


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
        floor = self.floors.entity if mode == "entity" else self.floors.semantic
        flt = self.store.memories.filter(where_metadata=where or None, **flt_args)
        hits = self._ranked(query, flt, floor, intents, top_k, set(exclude))
        return LaneResult(query, tuple(hits), mode, tuple(sorted(set(slugs))), intent_names, floor,
                          resolution.ambiguous if not clarify else (), resolution.unknown)

    def _ranked(self, query: str, flt: Any, floor: float, intents: frozenset[MemoryType], top_k: int,
                exclude: set[str]) -> list[LaneHit]:
        if top_k <= 0:
            return []
        conn = self.store.tracker.conn()
        depth = max(4 * top_k, 32)
        while True:
            hits: list[SearchHit] = self.store.memories.search(query, flt, depth)
            states = self.feedback.states(conn, [h.id for h in hits])
            scored = [self._score(h, intents, states.get(h.id)) for h in hits
                      if h.score >= floor and h.score > 0 and h.id not in exclude]
            scored.sort(key=lambda x: (-x.score, x.id))
            last = hits[-1].score if hits else 0.0
            exhausted = len(hits) < depth or last < floor or last <= 0
            if exhausted or (len(scored) >= top_k and scored[top_k - 1].score > last * MAX_MULTIPLIER):
                return scored[:top_k]
            depth *= 4

    @staticmethod
    def _score(hit: SearchHit, intents: frozenset[MemoryType], state: FeedbackState | None) -> LaneHit:
        fields = lane_meta.read(hit.entry.metadata if hit.entry else None)
        weight = type_weight(fields.memory_type)
        boost = intent_boost(fields.memory_type, intents)
        factor = state.factor if state is not None else 1.0
        return LaneHit(hit.id, final_score(hit.score, weight, boost, factor), hit.score, fields.memory_type,
                       weight, boost, factor, fields.entity_slugs, hit.entry)
