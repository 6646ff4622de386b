"""Seed 001 §5 `hybridSearch`: FTS5 0.4 + vector 0.6, temporal filter, decay, relationship and entity enrichment.

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
7. Sort by score (ties by id), cut to `limit`, record an access for each
   returned memory (access count, last access, layer).
"""
from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

import numpy as np

from reference.knowledge import entity_table, relationship_table, temporal_table
from reference.knowledge.model import OracleHit
from reference.tracker import MemoryFilter, fts_match, from_db, to_db
from reference.vector_search import KIND_TAGS

if TYPE_CHECKING:
    from reference.knowledge.layer import KnowledgeLayer

FTS_WEIGHT, VECTOR_WEIGHT = 0.4, 0.6
DECAY_WEIGHT = 0.2  # fitted on the calibration split by bench/calibrate.py (seed: 1.0, score x relevance)
ENTITY_BOOST, MAX_ENTITY_BOOST = 0.1, 0.2
SUPERSEDED_FACTOR = 0.5
RELATED_FACTOR = 0.7
MAX_HOPS = 3


def _normalised(scores: dict[str, float]) -> dict[str, float]:
    best = max(scores.values(), default=0.0)
    if best <= 0:
        return {k: 0.0 for k in scores}
    return {k: max(v, 0.0) / best for k, v in scores.items()}


def allowed_ids(layer: "KnowledgeLayer", flt: MemoryFilter | None, after: float | None, before: float | None,
                entity_filter: list[str] | None) -> set[str] | None:
    """Ids that pass every restriction; None when nothing restricts."""
    conn = layer.store.tracker.conn()
    allowed: set[str] | None = None
    if flt is not None and not flt.empty:
        where, params = flt.sql("m")
        allowed = {r[0] for r in conn.execute(f"SELECT m.id FROM memories m WHERE {where}", params)}
    if after is not None or before is not None:
        window = temporal_table.ids_in_window(conn, after, before)
        allowed = window if allowed is None else allowed & window
    if entity_filter:
        docs = entity_table.documents_with_all(conn, entity_table.resolve_refs(conn, entity_filter))
        allowed = docs if allowed is None else allowed & docs
    return allowed


def keyword_scores(conn: sqlite3.Connection, text: str, pool: int, allowed: set[str] | None) -> dict[str, float]:
    """Memory id -> -bm25 of the `pool` best keyword matches among `allowed` (all when None)."""
    match = fts_match(text)
    if match is None or pool <= 0:
        return {}
    if allowed is None:
        # rank in the FTS index alone (joining every match to its row costs more than bm25); ids are not in
        # the index, so a tie group reaching past the slack falls back to the join below, ordered by id
        slack = pool + 16
        rows = conn.execute("SELECT rowid, -bm25(memories_fts) FROM memories_fts WHERE memories_fts MATCH ? "
                            "ORDER BY bm25(memories_fts) LIMIT ?", (match, slack)).fetchall()
        if not (len(rows) == slack and rows[-1][1] == rows[min(pool, len(rows)) - 1][1]):
            names = dict(_ids_of_hashes(conn, [r[0] for r in rows]))
            scored = sorted(((names[r[0]], float(r[1])) for r in rows if r[0] in names), key=lambda x: (-x[1], x[0]))
            return dict(scored[:pool])
    base = ("SELECT m.id, -bm25(memories_fts) AS s FROM memories_fts JOIN memories m "
            "ON m.key_hash = memories_fts.rowid WHERE memories_fts MATCH ?")
    rows = []
    ids = sorted(allowed) if allowed is not None else None
    if ids is None:
        rows = conn.execute(base, (match,)).fetchall()
    for i in range(0, len(ids or []), 500):
        part = ids[i: i + 500]
        rows += conn.execute(base + f" AND m.id IN ({','.join('?' * len(part))})", (match, *part)).fetchall()
    return {r[0]: float(r[1]) for r in sorted(rows, key=lambda r: (-r[1], r[0]))[:pool]}


def vector_scores(layer: "KnowledgeLayer", text: str, pool: int, allowed: set[str] | None) -> dict[str, float]:
    store = layer.store
    qvec = store.memories.embed_query(text)
    if not np.any(qvec) or pool <= 0:
        return {}
    conn = store.tracker.conn()
    if allowed is None:
        pairs = store.vectors.topk(qvec, pool, tags=[KIND_TAGS["memory"]], with_ties=True)
        names = {from_db(h): i for h, i in _ids_of_hashes(conn, [to_db(h) for h, _ in pairs])}
        scored = [(names[h], s) for h, s in pairs if h in names]
    else:
        ids = sorted(allowed)
        hashes = [store.tracker.hash_fn(i) for i in ids]
        sims = store.vectors.scores(qvec, hashes)
        scored = [(i, float(s)) for i, s in zip(ids, sims) if not np.isnan(s)]
    scored.sort(key=lambda x: (-x[1], x[0]))
    return dict(scored[:pool])


def _ids_of_hashes(conn: sqlite3.Connection, db_hashes: list[int]) -> list[tuple[int, str]]:
    out = []
    for i in range(0, len(db_hashes), 500):
        part = db_hashes[i: i + 500]
        out += conn.execute(f"SELECT key_hash, id FROM memories WHERE key_hash IN ({','.join('?' * len(part))})",
                            part).fetchall()
    return out


def hybrid_search(layer: "KnowledgeLayer", text: str, *, limit: int = 10, include_related: bool = True,
                  after: float | None = None, before: float | None = None, entity_filter: list[str] | None = None,
                  min_relevance: float | None = None, flt: MemoryFilter | None = None,
                  record_access: bool = True, details: bool = True) -> list[OracleHit]:
    """Ranked hits; `details` attaches each hit's entities and relationships (the ranker needs neither)."""
    conn, now = layer.store.tracker.conn(), layer.store.clock.now()
    allowed = allowed_ids(layer, flt, after, before, entity_filter)
    pool = 2 * limit
    kw = _normalised(keyword_scores(conn, text, pool, allowed))
    vec = _normalised(vector_scores(layer, text, pool, allowed))
    hits: dict[str, OracleHit] = {}
    for mid in sorted(set(kw) | set(vec)):
        k, v = kw.get(mid), vec.get(mid)
        if not (k or v):
            continue  # no positive evidence in either list (cosine <= 0, no keyword)
        kind = "hybrid" if k is not None and v is not None else ("keyword" if k is not None else "semantic")
        hits[mid] = OracleHit(mid, FTS_WEIGHT * (k or 0.0) + VECTOR_WEIGHT * (v or 0.0), kind,
                              {"keyword": k or 0.0, "semantic": v or 0.0})
    query_entities = {m.entity_id for m in layer.extractor.extract(text, now)}
    _score(layer, conn, hits, now, min_relevance, query_entities)
    if include_related:
        _enrich(layer, conn, hits, now, min_relevance, allowed)
    ranked = sorted(hits.values(), key=lambda h: (-h.score, h.id))[:limit]
    ids = [h.id for h in ranked]
    for h in ranked:
        h.score = round(h.score, 9)
    if details:
        ents = entity_table.entity_ids_of(conn, ids)
        rels = relationship_table.touching(conn, ids)
        for h in ranked:
            h.related_entities = ents.get(h.id, [])
            h.relationships = [r for r in rels if h.id in (r.source_id, r.target_id)]
    if record_access and ids:
        layer.record_access(ids)
    return ranked


def _score(layer: "KnowledgeLayer", conn: sqlite3.Connection, hits: dict[str, OracleHit], now: float,
           min_relevance: float | None, query_entities: set[str]) -> None:
    """Decay, minRelevance and the entity boost, in place."""
    temporal = temporal_table.get_many(conn, list(hits))
    ents = entity_table.entity_ids_of(conn, list(hits)) if query_entities else {}
    for mid in list(hits):
        t = temporal.get(mid)
        relevance = temporal_table.relevance_now(t, now) if t is not None else 1.0
        if min_relevance is not None and relevance < min_relevance:
            del hits[mid]
            continue
        h = hits[mid]
        h.components["relevance"] = round(relevance, 6)
        h.score *= (1 - DECAY_WEIGHT) + DECAY_WEIGHT * relevance
        shared = len(query_entities & set(ents.get(mid, [])))
        if shared:
            h.components["entity_boost"] = min(MAX_ENTITY_BOOST, ENTITY_BOOST * shared)
            h.score += h.components["entity_boost"]


def _enrich(layer: "KnowledgeLayer", conn: sqlite3.Connection, hits: dict[str, OracleHit], now: float,
            min_relevance: float | None, allowed: set[str] | None) -> None:
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
        temporal = temporal_table.get_many(conn, sorted(added))
        for mid, score in sorted(added.items()):
            t = temporal.get(mid)
            relevance = temporal_table.relevance_now(t, now) if t is not None else 1.0
            if min_relevance is None or relevance >= min_relevance:
                hits[mid] = OracleHit(mid, score, "related", {"carried": round(score, 6),
                                                              "relevance": round(relevance, 6)})
        frontier = set(added) & set(hits)
