"""Seed 001 `oracle_*` tools, and the `score_knowledge` directive that scores them against planted truth."""
from __future__ import annotations

import json
from pathlib import Path
from statistics import fmean
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bench.backends.capabilities import Capability as C
from bench.metrics import ndcg
from bench.steps.registry import Outcome, step

RelType = Literal["updates", "extends", "derives", "relates_to"]
Time = str | float | None
_SEARCHES = "knowledge_searches"
RELATIONSHIP_PAIRS = "relationship_pairs"   # ctx.state key: the planted pairs as scored
REASON_CHARS = 200   # a backend's own reason for a relationship, as the report keeps it (a peer's text is unbounded)


class TemporalFilter(BaseModel):
    model_config = ConfigDict(extra="forbid")
    after: Time = None
    before: Time = None


class OracleSearch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    query: str
    limit: int = Field(10, ge=1, le=1000)
    includeRelated: bool = True
    temporalFilter: TemporalFilter | None = None
    entityFilter: list[str] | None = None
    minRelevance: float | None = None


class OracleEntities(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: str | None = None
    limit: int = Field(100, ge=1, le=100_000)
    documentId: str | None = None        # harness extension: the entities of one memory


class OracleRelationships(BaseModel):
    model_config = ConfigDict(extra="forbid")
    documentId: str
    type: RelType | None = None          # harness extension: only this relationship type


class OracleTimeline(BaseModel):
    model_config = ConfigDict(extra="forbid")
    after: Time = None
    before: Time = None
    limit: int | None = Field(None, ge=1, le=100_000)


class OracleLearn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pattern: str
    concepts: list[str] | None = None
    source: str | None = None


class ScoreKnowledge(BaseModel):
    model_config = ConfigDict(extra="forbid")
    truth: str                           # JSON file, relative to the scenario file


def search_key(a: OracleSearch) -> str:
    return json.dumps(a.model_dump(mode="json"), sort_keys=True)


@step("oracle_search", args=OracleSearch, requires=(C.KNOWLEDGE,), op="query")
def oracle_search(ctx, a: OracleSearch) -> Outcome:
    """Hybrid search (seed 001 §5); ranked memory ids."""
    tf = a.temporalFilter or TemporalFilter()
    rows = ctx.backend.oracle_search(a.query, a.limit, a.includeRelated, tf.after, tf.before, a.entityFilter,
                                     a.minRelevance)
    ids = [r["id"] for r in rows]
    # a list per key: the same search asked twice (before and after an update) is scored in order
    ctx.state.setdefault(_SEARCHES, {}).setdefault(search_key(a), []).append([ctx.to_scenario_id(i) for i in ids])
    return Outcome(ranked=ids, scores=[r["score"] for r in rows], value=rows)


@step("oracle_entities", args=OracleEntities, requires=(C.KNOWLEDGE,), op="query")
def oracle_entities(ctx, a: OracleEntities) -> Outcome:
    """Entities (ids such as `feature:auth`, `file:src/a.py`), most mentioned first, or those of one memory."""
    rows = ctx.backend.oracle_entities(a.type, a.limit, a.documentId)
    return Outcome(ranked=[r["id"] for r in rows], value=rows)


@step("oracle_relationships", args=OracleRelationships, requires=(C.KNOWLEDGE,), op="query")
def oracle_relationships(ctx, a: OracleRelationships) -> Outcome:
    """Relationships of a memory; ranked = the other memory of each, value = the records."""
    rows = ctx.backend.oracle_relationships(a.documentId, a.type)
    others = [r["target_id"] if r["source_id"] == a.documentId else r["source_id"] for r in rows]
    return Outcome(ranked=list(dict.fromkeys(others)), value=rows)


@step("oracle_timeline", args=OracleTimeline, requires=(C.KNOWLEDGE,), op="query")
def oracle_timeline(ctx, a: OracleTimeline) -> Outcome:
    """Memories by effective date in [after, before), oldest first."""
    rows = ctx.backend.oracle_timeline(a.after, a.before, a.limit)
    return Outcome(ranked=[r["id"] for r in rows], value=rows)


@step("oracle_learn", args=OracleLearn, requires=(C.KNOWLEDGE,), op="write")
def oracle_learn(ctx, a: OracleLearn) -> Outcome:
    """Store a learning (seed 001 §6)."""
    mid = ctx.backend.oracle_learn(a.pattern, a.concepts, a.source)
    return Outcome(created_id=mid, value=mid)


@step("score_knowledge", args=ScoreKnowledge, requires=(C.KNOWLEDGE,), kind="directive")
def score_knowledge(ctx, a: ScoreKnowledge) -> Outcome:
    """Score entities, relationships and earlier oracle_search results against a truth file (scenarios/README.md)."""
    path = ctx.path(a.truth)
    try:
        truth = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"score_knowledge: cannot read truth file {path}: {exc}") from None
    metrics: dict[str, float] = {}
    metrics |= _entity_metrics(ctx, truth.get("entities", {}))
    metrics |= _relationship_metrics(ctx, truth.get("relationships", []), list(truth.get("entities", {})))
    metrics |= _search_metrics(ctx, truth.get("searches", []))
    ctx.state.setdefault("metrics", {}).update(metrics)
    return Outcome(value=metrics)


def _prf(tp: int, n_detected: int, n_truth: int, prefix: str) -> dict[str, float]:
    p = tp / n_detected if n_detected else 0.0
    r = tp / n_truth if n_truth else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {f"{prefix}_precision": round(p, 6), f"{prefix}_recall": round(r, 6), f"{prefix}_f1": round(f, 6)}


def _entity_metrics(ctx, planted: dict[str, list[str]]) -> dict[str, float]:
    if not planted:
        return {}
    tp = n_det = n_truth = 0
    for alias, want in sorted(planted.items()):
        got = {r["id"] for r in ctx.backend.oracle_entities(None, 100_000, ctx.resolve("$" + alias))}
        tp, n_det, n_truth = tp + len(got & set(want)), n_det + len(got), n_truth + len(set(want))
    return _prf(tp, n_det, n_truth, "entity")


def _relationship_metrics(ctx, planted: list[dict[str, str]], memories: list[str]) -> dict[str, Any]:
    if not planted:
        return {}
    detected: dict[tuple[str, str], str] = {}
    reasons: dict[tuple[str, str], str] = {}
    for alias in sorted(set(memories) | {p["source"] for p in planted}):
        mid = ctx.resolve("$" + alias)
        for r in ctx.backend.oracle_relationships(mid, None):
            if r["source_id"] == mid:
                key = (alias, ctx.to_scenario_id(r["target_id"]))
                detected[key] = r["type"]
                meta = r.get("metadata")
                reason = meta.get("reason") if isinstance(meta, dict) else None
                if isinstance(reason, str):
                    reasons[key] = reason[:REASON_CHARS]
    truth = {(p["source"], p["target"]): p["type"] for p in planted}
    # each planted pair and what the backend called it, for the report's `relationships` (case by case)
    ctx.state[RELATIONSHIP_PAIRS] = [
        {"source": s, "target": t, "truth": want, "detected": detected.get((s, t), "none")}
        | ({"reason": reasons[(s, t)]} if (s, t) in reasons else {})
        for (s, t), want in sorted(truth.items())]
    correct = {k: detected.get(k, "none") == t for k, t in truth.items()}
    out: dict[str, float] = {"relationship_accuracy": round(fmean(correct.values()), 6)}
    for t in sorted(set(truth.values())):
        out[f"relationship_accuracy.{t}"] = round(fmean(correct[k] for k, v in truth.items() if v == t), 6)
    typed = {k: t for k, t in detected.items() if t != "relates_to"}
    if typed:
        out["relationship_typed_precision"] = round(fmean(truth.get(k) == t for k, t in typed.items()), 6)
    return out


def _search_metrics(ctx, searches: list[dict[str, Any]]) -> dict[str, float]:
    if not searches:
        return {}
    seen = {k: list(v) for k, v in ctx.state.get(_SEARCHES, {}).items()}
    scores = []
    for s in searches:
        runs = seen.get(search_key(OracleSearch.model_validate(s["args"])), [])
        scores.append(ndcg(runs.pop(0) if runs else [], s["relevant"], 10))  # a search that never ran scores 0
    return {"search_ndcg@10": round(fmean(scores), 6)}
