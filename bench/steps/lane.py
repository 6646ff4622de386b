"""Seed 004 Memory Lane tools, the harness's names for its two hooks, and the `score_memory_lane` directive.

`memory-lane_store` and `memory-lane_find` are the seed's tools.
`memory-lane_feedback` (helpful/harmful) and `memory-lane_inject` (the
prompt-injection hook, per session) are the harness's names for the seed's
feedback scoring and hook-based auto-injection, which the seed describes
without naming a tool. Inject steps keep the scenario metrics
`lane_duplicate_injections_per_session` (a memory injected again in a session
it was already injected in; seed target 0) and `lane_injected_memories`.
`score_memory_lane` scores earlier finds against the generator's planted truth.
"""
from __future__ import annotations

import json
from statistics import fmean
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bench.backends.capabilities import Capability as C
from bench.steps.registry import Outcome, step

MemoryTypeName = Literal["correction", "decision", "commitment", "insight", "learning", "confidence",
                         "pattern_seed", "cross_agent", "workflow_note", "gap"]
_FINDS = "lane_finds"
_INJECTED = "lane_injected"


class LaneStore(BaseModel):
    model_config = ConfigDict(extra="forbid")
    information: str
    type: MemoryTypeName | None = None
    entities: list[str] | None = None
    paths: list[str] | None = None          # files touched (the PostToolUse hook's path-based entities)
    tags: list[str] | None = None
    confidence_score: int | None = Field(None, ge=0, le=100)


class LaneFind(BaseModel):
    model_config = ConfigDict(extra="forbid")
    query: str
    entities: list[str] | None = None
    limit: int = Field(10, ge=1, le=1000)


class LaneFeedback(BaseModel):
    model_config = ConfigDict(extra="forbid")
    memory_id: str
    signal: Literal["helpful", "harmful"]


class LaneInject(BaseModel):
    model_config = ConfigDict(extra="forbid")
    query: str
    session_id: str = Field(min_length=1)
    limit: int = Field(3, ge=1, le=100)


class FirstProbe(LaneFind):
    first: str                              # alias of the memory the find must rank first (its last call)


class FeedbackProbe(LaneFind):
    before: str                             # first before the feedback (the find's first call)
    after: str                              # first after it (the find's last call)


class ClarifyProbe(LaneFind):
    """An ambiguous find that must ask for clarification and return nothing, paired with a control."""

    control: str                            # a find (same limit) naming one entity: must not ask, must find




class BoostProbe(LaneFind):
    neutral: str                            # the same find without an intent word (its last call)
    a: str                                  # aliases of two memories with the same text, different types
    b: str
    ratio: float                            # seed's (a/b with the intent word) / (a/b without it)


class FeedbackRatioProbe(LaneFind):
    target: str                             # the memory that got the signal
    twin: str                               # a memory with the same text and type that did not
    ratio: float                            # seed's (target/twin after) / (target/twin before)


class FloorProbe(LaneFind):
    """An unrelated find that must come back empty, paired with a control."""

    control: str                            # a find (same limit) restating a memory: must come back non-empty


class ScoreLane(BaseModel):
    model_config = ConfigDict(extra="forbid")
    intent: list[FirstProbe] = []
    feedback: list[FeedbackProbe] = []
    clarification: list[ClarifyProbe] = []
    boost: list[BoostProbe] = []
    feedback_ratio: list[FeedbackRatioProbe] = []
    floor: list[FloorProbe] = []
    tolerance: float = Field(0.02, ge=0, lt=1)  # relative margin of a measured ratio


def find_key(a: LaneFind) -> str:
    return json.dumps(LaneFind.model_validate(a.model_dump(include=set(LaneFind.model_fields))).model_dump(),
                      sort_keys=True)


@step("memory-lane_store", args=LaneStore, requires=(C.MEMORY_LANE,), op="write")
def lane_store(ctx, a: LaneStore) -> Outcome:
    """Store a typed memory about entities."""
    mid = ctx.backend.lane_store(a.information, a.type, a.entities, a.paths, a.tags, a.confidence_score)
    return Outcome(created_id=mid, value=mid)


@step("memory-lane_find", args=LaneFind, requires=(C.MEMORY_LANE,), op="query")
def lane_find(ctx, a: LaneFind) -> Outcome:
    """Entity-aware search; ranked ids, value = the whole answer (clarification_required, candidates, ...)."""
    out = ctx.backend.lane_find(a.query, a.entities, a.limit)
    ids = [r["id"] for r in out["results"]]
    ctx.state.setdefault(_FINDS, {}).setdefault(find_key(a), []).append(
        {"ranked": [ctx.to_scenario_id(i) for i in ids], "clarify": bool(out["clarification_required"]),
         "scores": {ctx.to_scenario_id(r["id"]): float(r["score"]) for r in out["results"]}})
    return Outcome(ranked=ids, scores=[r["score"] for r in out["results"]], value=out)


@step("memory-lane_feedback", args=LaneFeedback, requires=(C.MEMORY_LANE,), op="write")
def lane_feedback(ctx, a: LaneFeedback) -> Outcome:
    """Record a helpful/harmful signal for a memory."""
    return Outcome(value=ctx.backend.lane_feedback(a.memory_id, a.signal))


@step("memory-lane_inject", args=LaneInject, requires=(C.MEMORY_LANE,), op="query")
def lane_inject(ctx, a: LaneInject) -> Outcome:
    """The injection hook: ranked = the memories injected by this call; updates the duplicate metrics."""
    out = ctx.backend.lane_inject(a.query, a.session_id, a.limit)
    ids = list(out["memory_ids"])
    seen: dict[str, set[str]] = ctx.state.setdefault(_INJECTED, {}).setdefault("sessions", {})
    before = seen.setdefault(a.session_id, set())
    dups = len(ids) - len(set(ids)) + len(set(ids) & before)
    before.update(ids)
    tally = ctx.state[_INJECTED]
    tally["duplicates"] = tally.get("duplicates", 0) + dups
    metrics = ctx.state.setdefault("metrics", {})
    metrics["lane_duplicate_injections_per_session"] = round(tally["duplicates"] / len(seen), 6)
    metrics["lane_injected_memories"] = sum(len(s) for s in seen.values())
    return Outcome(ranked=ids, value=out)


@step("score_memory_lane", args=ScoreLane, requires=(C.MEMORY_LANE,), kind="directive")
def score_memory_lane(ctx, a: ScoreLane) -> Outcome:
    """Intent hits, feedback effect and clarification accuracy of earlier finds (scenarios/README.md)."""
    finds: dict[str, list[dict[str, Any]]] = ctx.state.get(_FINDS, {})

    def calls(p: LaneFind) -> list[dict[str, Any]]:
        return finds.get(find_key(p), [])

    def top(call: dict[str, Any] | None) -> str | None:
        return call["ranked"][0] if call and call["ranked"] else None

    metrics: dict[str, float] = {}
    if a.intent:
        metrics["lane_intent_hit_rate"] = fmean(top((calls(p) or [None])[-1]) == p.first for p in a.intent)
    if a.feedback:
        metrics["lane_feedback_effect"] = fmean(
            len(calls(p)) >= 2 and top(calls(p)[0]) == p.before and top(calls(p)[-1]) == p.after for p in a.feedback)
    if a.clarification:
        # a pair scores only when the probe asks and finds nothing AND its control finds without asking,
        # so a backend that never answers (or always asks) earns nothing from it
        def answered(p: LaneFind, clarify: bool) -> bool:
            got = calls(p)
            return bool(got) and got[-1]["clarify"] == clarify and (not got[-1]["ranked"]) == clarify
        metrics["lane_clarification_accuracy"] = fmean(
            answered(p, True) and answered(p.model_copy(update={"query": p.control}), False) for p in a.clarification)
    metrics |= ratio_metrics(a, finds)
    metrics = {k: round(float(v), 6) for k, v in metrics.items()}
    ctx.state.setdefault("metrics", {}).update(metrics)
    return Outcome(value=metrics)


def _pair_ratio(call: dict[str, Any] | None, a: str, b: str) -> float | None:
    """score(a) / score(b) in one find, None when either is missing or b scores 0."""
    if not call or a not in call["scores"] or b not in call["scores"] or call["scores"][b] <= 0:
        return None
    return call["scores"][a] / call["scores"][b]


def ratio_metrics(a: ScoreLane, finds: dict[str, list[dict[str, Any]]]) -> dict[str, float]:
    """Like-with-like probes of seed 004's multiplicative effects (intent boost, feedback) and of its floor.

    A ratio of two same-text memories' scores cancels the similarity and any
    type weight; dividing by the same ratio without the effect leaves only the
    effect. `lane_intent_boost_accuracy` / `lane_feedback_accuracy`: the share of
    probes whose measured effect is within `tolerance` of the seed's;
    `lane_intent_boost_measured` / `lane_feedback_*_measured`: mean measured effect.
    """
    def last(p: LaneFind, query: str | None = None) -> dict[str, Any] | None:
        q = p if query is None else p.model_copy(update={"query": query})
        got = finds.get(find_key(q), [])
        return got[-1] if got else None

    def close(x: float | None, want: float) -> bool:
        return x is not None and abs(x - want) <= a.tolerance * want

    out: dict[str, float] = {}
    if a.boost:
        measured = []
        for p in a.boost:
            r1, r0 = _pair_ratio(last(p), p.a, p.b), _pair_ratio(last(p, p.neutral), p.a, p.b)
            measured.append((r1 / r0 if r1 is not None and r0 else None, p.ratio))
        out["lane_intent_boost_accuracy"] = fmean(close(m, want) for m, want in measured)
        boosted = [m for m, want in measured if want > 1 and m is not None]
        if boosted:
            out["lane_intent_boost_measured"] = fmean(boosted)
    if a.feedback_ratio:
        by_ratio: dict[float, list[float]] = {}
        hits = []
        for p in a.feedback_ratio:
            calls = finds.get(find_key(p), [])
            r0 = _pair_ratio(calls[0], p.target, p.twin) if len(calls) >= 2 else None
            r1 = _pair_ratio(calls[-1], p.target, p.twin) if len(calls) >= 2 else None
            m = r1 / r0 if r1 is not None and r0 else None
            hits.append(close(m, p.ratio))
            if m is not None:
                by_ratio.setdefault(p.ratio, []).append(m)
        out["lane_feedback_accuracy"] = fmean(hits)
        for want, ms in by_ratio.items():
            out[f"lane_feedback_{'helpful' if want > 1 else 'harmful'}_measured"] = fmean(ms)
    if a.floor:
        # a pair scores only when the probe comes back empty AND its control does not: answering nothing earns 0
        def empty(call: dict[str, Any] | None) -> bool | None:
            return None if call is None else not call["ranked"]
        out["lane_floor_accuracy"] = fmean(empty(last(p)) is True and empty(last(p, p.control)) is False
                                           for p in a.floor)
    return out
