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

Candidates are scored in growing batches (cosines from the vector cache, the
type and feedback of each from one light query) until the k-th final score
beats what any unscored candidate could reach (its cosine times the largest
weight x boost x feedback factor this query allows), so the top k equals
re-ranking every candidate; only the top k rows are then read whole.
"""
from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any


from reference.lane import metadata as lane_meta
from reference.lane.feedback import MAX_FACTOR, FeedbackTable
from reference.lane.intent import detect_intents, intent_boost
from reference.lane.resolver import Ambiguity, Resolution
from reference.lane.scoring import Floors, final_score
from reference.lane.taxonomy import MemoryType, type_weight
from reference.memory_record import MemoryEntry
from reference.tracker.codec import from_db, to_db
from reference import vector_topk
from reference.vector_search import KIND_TAGS

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
        # one pass over the vectors; each deeper look below selects from the same scores
        keys, cosines = store.vectors.scan(qvec, allowed, tags=None if allowed is not None else [MEMORY_TAG])
        bound = max(type_weight(t) * intent_boost(t, intents) for t in MemoryType) * MAX_FACTOR
        light: dict[int, tuple[str, MemoryType, float]] = {}   # key hash -> (id, type, feedback factor)
        depth = max(4 * top_k, 32)
        while True:
            pairs = vector_topk.best(keys, cosines, depth, with_ties=True)
            kept = [(h, c) for h, c in pairs if floor is None or (c >= floor and c > 0)]
            self._load_light(conn, [h for h, _ in kept if h not in light], light)
            scored = sorted(((final_score(max(c, 0.0), type_weight(light[h][1]), intent_boost(light[h][1], intents),
                                          light[h][2]), light[h][0], h, c)
                             for h, c in kept if h in light and light[h][0] not in exclude),
                            key=lambda x: (-x[0], x[1]))
            last = max(pairs[-1][1], 0.0) if pairs else 0.0
            exhausted = len(pairs) < depth or (floor is not None and (last < floor or last <= 0))
            if exhausted or (len(scored) >= top_k and scored[top_k - 1][0] > last * bound):
                break
            depth *= 4
        top = scored[:top_k]
        entries = store.tracker.memories.get_many(conn, [h for _, _, h, _ in top])
        return [self._hit(entries[h], final, c, intents, light[h][2]) for final, _, h, c in top if h in entries]

    def _load_light(self, conn: Any, hashes: list[int], out: dict[int, tuple[str, MemoryType, float]]) -> None:
        """Id, lane type and feedback factor of each memory, without reading whole rows."""
        rows: list[tuple[int, str, Any]] = []
        for i in range(0, len(hashes), 500):
            part = [to_db(h) for h in hashes[i: i + 500]]
            rows += conn.execute(f"SELECT key_hash, id, json_extract(metadata, '$.memory_type') FROM memories "
                                 f"WHERE key_hash IN ({','.join('?' * len(part))})", part).fetchall()
        states = self.feedback.states(conn, [r[1] for r in rows])
        for kh, mid, mtype in rows:
            state = states.get(mid)
            out[from_db(kh)] = (mid, lane_meta.read({"memory_type": mtype}).memory_type,
                                state.factor if state is not None else 1.0)

    @staticmethod
    def _hit(entry: MemoryEntry, final: float, cosine: float, intents: frozenset[MemoryType], factor: float) -> LaneHit:
        fields = lane_meta.read(entry.metadata)
        return LaneHit(entry.id, final, cosine, fields.memory_type, type_weight(fields.memory_type),
                       intent_boost(fields.memory_type, intents), factor, fields.entity_slugs, entry)
