"""Seed 001 §5 `hybridSearch`: FTS5 0.4 + vector 0.6, temporal filter, decay, relationship and entity enrichment.

Steps 1-2 (the restrictions and both lists) are in hybrid_lists.py.

1. Candidates: restrictions first (structured filters, the temporal window on
   the effective date, the entity filter), so a filter never leaves the top k
   short while matching memories exist (the seed filters after ranking).
2. Keyword: FTS5 bm25 (score = -bm25), the `2 * limit` best; semantic: cosine
   of the query vector, the `2 * limit` best (the seed's `limit * 2`).
3. Merge: each list divided by its best score (so its best is 1.0, cosines
   below 0 count 0), then `0.4 * keyword + 0.6 * semantic`; matchType is
   `keyword`, `semantic` or `hybrid` (in both lists); a memory scoring 0 in
   both (no keyword, cosine <= 0) is dropped.
4. Relevance decay: relevance = seed §4 `calculateRelevance` at the clock's
   now; `minRelevance` drops memories below it; the score is multiplied by
   `(1 - DECAY_WEIGHT) + DECAY_WEIGHT * relevance`.
5. Entity enrichment: entities extracted from the query with the same rules
   add `ENTITY_BOOST` per shared entity (at most `MAX_ENTITY_BOOST`); every
   result lists its entities (`relatedEntities`).
6. Relationship enrichment (`includeRelated`): a memory that `updates` a
   result joins with the result's score (or keeps its own if higher) and the
   superseded result is multiplied by `SUPERSEDED_FACTOR`; a memory that
   `extends` or `derives` from a result joins with `RELATED_FACTOR` times its
   score (matchType `related`). Followed for up to `MAX_HOPS` hops, so a chain
   of updates surfaces its newest member. Results list their relationships.
7. Sort by score (ties by id), cut to `limit`; `KnowledgeLayer.search` then
   records an access for each returned memory (access count, last access, layer).

`hybrid_search` takes the parts of the layer it reads (the store, the entity
extractor, the decay weight) as arguments, so it does not know `KnowledgeLayer`.
"""
from __future__ import annotations

import sqlite3
from typing import Any

from reference.knowledge import entity_table, relationship_table
from reference.knowledge.decay import calculate_relevance
from reference.knowledge.extractor import EntityExtractor
from reference.knowledge.hybrid_lists import Allowed, allowed_ids, keyword_scores, vector_scores
from reference.knowledge.model import OracleHit
from reference.knowledge.timefmt import from_text
from reference.tracker import MemoryFilter

FTS_WEIGHT, VECTOR_WEIGHT = 0.4, 0.6
DECAY_WEIGHT = 0.5  # fitted on the calibration split by bench/calibration/knowledge.py (seed: 1.0, score x relevance)
ENTITY_BOOST, MAX_ENTITY_BOOST = 0.1, 0.2
SUPERSEDED_FACTOR = 0.5
RELATED_FACTOR = 0.7
MAX_HOPS = 3


def _normalised(scores: dict[str, float]) -> dict[str, float]:
    best = max(scores.values(), default=0.0)
    if best <= 0:
        return {k: 0.0 for k in scores}
    return {k: max(v, 0.0) / best for k, v in scores.items()}


def hybrid_search(store: Any, extractor: EntityExtractor, text: str, *, decay_weight: float | None = None,
                  limit: int = 10, include_related: bool = True, after: float | None = None,
                  before: float | None = None, entity_filter: list[str] | None = None,
                  min_relevance: float | None = None, flt: MemoryFilter | None = None,
                  details: bool = True) -> list[OracleHit]:
    """Ranked hits; `details` attaches each hit's entities and relationships (the ranker needs neither).

    `decay_weight` None is `DECAY_WEIGHT` (a store's Tuning, reference/tuning.py, passes its own)."""
    conn, now = store.tracker.conn(), store.clock.now()
    allowed = allowed_ids(store, flt, after, before, entity_filter)
    pool = 2 * limit
    memories = store.memories
    kw = _normalised(keyword_scores(conn, text, pool, allowed, memories.id_index, memories.keyword_index))
    vec = _normalised(vector_scores(store, text, pool, allowed))
    hits: dict[str, OracleHit] = {}
    for mid in sorted(set(kw) | set(vec)):
        k, v = kw.get(mid), vec.get(mid)
        if not (k or v):
            continue  # no positive evidence in either list (cosine <= 0, no keyword)
        kind = "hybrid" if k is not None and v is not None else ("keyword" if k is not None else "semantic")
        hits[mid] = OracleHit(mid, FTS_WEIGHT * (k or 0.0) + VECTOR_WEIGHT * (v or 0.0), kind,
                              {"keyword": k or 0.0, "semantic": v or 0.0})
    query_entities = {m.entity_id for m in extractor.extract(text, now)}
    _score(conn, hits, now, min_relevance, query_entities, DECAY_WEIGHT if decay_weight is None else decay_weight)
    if include_related:
        _enrich(conn, hits, now, min_relevance, allowed)
    ranked = sorted(hits.values(), key=lambda h: (-h.score, h.id))[:limit]
    for h in ranked:
        h.score = round(h.score, 9)
    if details:
        attach_details(conn, ranked)
    return ranked


def attach_details(conn: sqlite3.Connection, hits: list[OracleHit]) -> None:
    """Give each hit its entities (`relatedEntities`) and the relationships it takes part in, in place."""
    ids = [h.id for h in hits]
    ents = entity_table.entity_ids_of(conn, ids)
    rels = relationship_table.touching(conn, ids)
    for h in hits:
        h.related_entities = ents.get(h.id, [])
        h.relationships = [r for r in rels if h.id in (r.source_id, r.target_id)]


def _score(conn: sqlite3.Connection, hits: dict[str, OracleHit], now: float, min_relevance: float | None,
           query_entities: set[str], weight: float) -> None:
    """Decay (of `weight`), minRelevance and the entity boost, in place."""
    relevances = _relevances(conn, list(hits), now)
    ents = entity_table.entity_ids_of(conn, list(hits)) if query_entities else {}
    for mid in list(hits):
        relevance = relevances.get(mid, 1.0)
        if min_relevance is not None and relevance < min_relevance:
            del hits[mid]
            continue
        h = hits[mid]
        h.components["relevance"] = round(relevance, 6)
        h.score *= (1 - weight) + weight * relevance
        shared = len(query_entities & set(ents.get(mid, [])))
        if shared:
            h.components["entity_boost"] = min(MAX_ENTITY_BOOST, ENTITY_BOOST * shared)
            h.score += h.components["entity_boost"]


def _relevances(conn: sqlite3.Connection, ids: list[str], now: float) -> dict[str, float]:
    """`temporal_table.relevance_now` at `now` of each id with a temporal row, reading only its inputs.

    `temporal_table.get_many` joins the layer table and parses three dates per row: a third of
    oracle-hybrid's time outside its two lists at 100k memories, for ~40 hits a query. The same
    inputs (last access, else the recorded date; access count; importance) give the same floats.
    """
    out: dict[str, float] = {}
    for i in range(0, len(ids), 500):
        part = ids[i: i + 500]
        rows = conn.execute("SELECT document_id, coalesce(last_accessed, recorded_date), access_count, importance "
                            f"FROM temporal_data WHERE document_id IN ({','.join('?' * len(part))})", part)
        for mid, last, count, importance in rows:
            out[mid] = calculate_relevance(from_text(last), count, now, importance)
    return out


def _enrich(conn: sqlite3.Connection, hits: dict[str, OracleHit], now: float,
            min_relevance: float | None, allowed: Allowed | None) -> None:
    """Pull in the memories that update, extend or derive from results; demote superseded results."""
    frontier = set(hits)
    for _ in range(MAX_HOPS):
        if not frontier:
            return
        before = {mid: h.score for mid, h in hits.items()}
        added: dict[str, float] = {}
        for rel in relationship_table.into(conn, sorted(frontier), ("updates", "extends", "derives")):
            if allowed is not None and rel.source_id not in allowed:
                continue
            base = hits[rel.target_id]
            carried = before[rel.target_id] * (1.0 if rel.type == "updates" else RELATED_FACTOR)
            if rel.type == "updates" and "superseded" not in base.components:
                base.components["superseded"] = 1.0
                base.score *= SUPERSEDED_FACTOR
            if rel.source_id in hits:
                hits[rel.source_id].score = max(hits[rel.source_id].score, carried)
            else:
                added[rel.source_id] = max(added.get(rel.source_id, 0.0), carried)
        relevances = _relevances(conn, sorted(added), now)
        for mid, score in sorted(added.items()):
            relevance = relevances.get(mid, 1.0)
            if min_relevance is None or relevance >= min_relevance:
                hits[mid] = OracleHit(mid, score, "related", {"carried": round(score, 6),
                                                              "relevance": round(relevance, 6)})
        frontier = set(added) & set(hits)
