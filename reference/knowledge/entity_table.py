"""SQL over `entities` and `entity_mentions`; every function takes the caller's connection."""
from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from typing import Any

from reference.knowledge.extractor import mention_context
from reference.knowledge.model import Entity, ExtractedMention

# one encoder for every row (json.dumps with options builds a new one per call)
_JSON = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode
_ENTITY_COLS = "e.id, e.name, e.type, e.normalized_name, e.metadata"


def _entity(row: tuple, mentions: int = 0, documents: int = 0) -> Entity:
    return Entity(row[0], row[1], row[2], row[3], json.loads(row[4] or "{}"), mentions, documents)


def add_mentions(conn: sqlite3.Connection, document_id: str, text: str, mentions: list[ExtractedMention],
                 now: str) -> None:
    """Upsert the entities (the first name seen is kept) and insert one mention row per occurrence."""
    for m in mentions:
        meta = _JSON(m.metadata)
        conn.execute("INSERT INTO entities(id, name, type, normalized_name, metadata, created_at, updated_at) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET updated_at = excluded.updated_at",
                     (m.entity_id, m.name, m.type, m.normalized, meta, now, now))
        conn.execute("INSERT INTO entity_mentions(document_id, entity_id, context, position, end_position, surface, "
                     "confidence) VALUES (?, ?, ?, ?, ?, ?, ?)",
                     (document_id, m.entity_id, mention_context(text, m.position, m.end), m.position, m.end,
                      m.surface, m.confidence))


def add_mentions_many(conn: sqlite3.Connection, docs: list[tuple[str, str, list[ExtractedMention], str]]) -> None:
    """`add_mentions` for several (document, text, mentions, now) in order, as two `executemany`
    (the same rows and ids as one call per document)."""
    ents, rows = [], []
    for document_id, text, mentions, now in docs:
        for m in mentions:
            ents.append((m.entity_id, m.name, m.type, m.normalized,
                         "{}" if m.metadata == {} else _JSON(m.metadata), now, now))   # most carry none
            rows.append((document_id, m.entity_id, mention_context(text, m.position, m.end), m.position, m.end,
                         m.surface, m.confidence))
    if not rows:
        return
    conn.executemany("INSERT INTO entities(id, name, type, normalized_name, metadata, created_at, updated_at) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET updated_at = excluded.updated_at",
                     ents)
    # one statement per row (not tracker/multirow.py): multi-row statements here change the file's page layout
    conn.executemany("INSERT INTO entity_mentions(document_id, entity_id, context, position, end_position, surface, "
                     "confidence) VALUES (?, ?, ?, ?, ?, ?, ?)", rows)


def delete_document(conn: sqlite3.Connection, document_id: str) -> list[str]:
    """Drop a document's mentions and the entities left with none; return the dropped entity ids."""
    ids = [r[0] for r in conn.execute("SELECT DISTINCT entity_id FROM entity_mentions WHERE document_id = ?",
                                      (document_id,))]
    conn.execute("DELETE FROM entity_mentions WHERE document_id = ?", (document_id,))
    orphans = [i for i in ids if conn.execute("SELECT 1 FROM entity_mentions WHERE entity_id = ? LIMIT 1",
                                              (i,)).fetchone() is None]
    conn.executemany("DELETE FROM entities WHERE id = ?", [(i,) for i in orphans])
    return sorted(orphans)


def document_entities(conn: sqlite3.Connection, document_id: str) -> list[Entity]:
    """Entities mentioned in a document, by first position, with their mention count there."""
    rows = conn.execute(
        f"SELECT {_ENTITY_COLS}, count(*), min(coalesce(m.position, 1 << 40)) AS first FROM entity_mentions m "
        "JOIN entities e ON e.id = m.entity_id WHERE m.document_id = ? GROUP BY e.id ORDER BY first, e.id",
        (document_id,)).fetchall()
    return [_entity(r[:5], r[5], 1) for r in rows]


def document_mentions(conn: sqlite3.Connection, document_id: str) -> list[dict[str, Any]]:
    """A document's mentions in text order (unplaced ones last), each as a dict of its columns."""
    rows = conn.execute(
        "SELECT entity_id, context, position, end_position, surface, confidence FROM entity_mentions "
        "WHERE document_id = ? ORDER BY coalesce(position, 1 << 40), id", (document_id,)).fetchall()
    keys = ("entity_id", "context", "position", "end_position", "surface", "confidence")
    return [dict(zip(keys, r)) for r in rows]


def entity_ids_of(conn: sqlite3.Connection, document_ids: list[str]) -> dict[str, list[str]]:
    """Document id -> its distinct entity ids (sorted)."""
    out: dict[str, list[str]] = defaultdict(list)
    for i in range(0, len(document_ids), 500):
        part = document_ids[i: i + 500]
        for doc, ent in conn.execute(
                f"SELECT DISTINCT document_id, entity_id FROM entity_mentions WHERE document_id IN "
                f"({','.join('?' * len(part))}) ORDER BY document_id, entity_id", part):
            out[doc].append(ent)
    return dict(out)


def list_entities(conn: sqlite3.Connection, type_: str | None, limit: int) -> list[Entity]:
    """Entities by number of documents, then mentions (descending), then id."""
    where, params = ("WHERE e.type = ?", [type_]) if type_ else ("", [])
    rows = conn.execute(
        f"SELECT {_ENTITY_COLS}, count(m.id), count(DISTINCT m.document_id) AS docs FROM entities e "
        f"LEFT JOIN entity_mentions m ON m.entity_id = e.id {where} GROUP BY e.id "
        "ORDER BY docs DESC, count(m.id) DESC, e.id LIMIT ?", [*params, limit]).fetchall()
    return [_entity(r[:5], r[5], r[6]) for r in rows]


def sharing_candidates(conn: sqlite3.Connection, document_id: str, exclude_types: tuple[str, ...],
                       per_entity: int, before_mention: int | None = None,
                       mine: list[str] | None = None) -> dict[str, tuple[list[str], int]]:
    """Documents sharing an entity with this one, from an index: doc -> (shared entity ids, recency).

    For each of the document's entities (types in `exclude_types` left out) only the
    `per_entity` most recently ingested other documents mentioning it are read, by
    `idx_mentions_entity` (entity_id, then the rowid `id`) with LIMIT: the work is bounded by the
    document's own entities, never by the store. `recency` is the newest mention row
    id of the candidate among those read (mention ids grow with ingest order). With
    `before_mention`, only mention rows with a smaller id are read (a batch ingest: the store
    as it was when this document's turn came). `mine`, when the caller knows them (it has just
    inserted the mentions), are the document's entity ids outside `exclude_types`, sorted.
    """
    bound = (1 << 62) if before_mention is None else before_mention
    if mine is None:
        marks = ",".join("?" * len(exclude_types)) or "''"
        mine = [r[0] for r in conn.execute(
            "SELECT DISTINCT m.entity_id FROM entity_mentions m JOIN entities e ON e.id = m.entity_id "
            f"WHERE m.document_id = ? AND e.type NOT IN ({marks}) ORDER BY m.entity_id",
            (document_id, *exclude_types))]
    out: dict[str, tuple[list[str], int]] = {}
    for ent in mine:
        seen: set[str] = set()
        for doc, mid in conn.execute(
                "SELECT document_id, id FROM entity_mentions "
                "WHERE entity_id = ? AND id < ? AND document_id != ? ORDER BY id DESC LIMIT ?",
                (ent, bound, document_id, per_entity)):
            if doc in seen:
                continue
            seen.add(doc)
            got = out.get(doc)
            if got is None:
                out[doc] = ([ent], mid)
            else:
                got[0].append(ent)
                if mid > got[1]:
                    out[doc] = (got[0], mid)
    return out


def rank_sharing(candidates: dict[str, tuple[list[str], int]]) -> list[tuple[str, int]]:
    """(doc, shared count): most shared entities first, then most recently ingested, then id."""
    return [(d, len(e)) for d, (e, r) in sorted(candidates.items(), key=lambda kv: (-len(kv[1][0]), -kv[1][1], kv[0]))]


def resolve_refs(conn: sqlite3.Connection, refs: list[str]) -> list[set[str]]:
    """For each reference (an entity id like `feature:auth`, or a bare name), the matching entity ids."""
    out = []
    for ref in refs:
        ref = " ".join(ref.split())
        rows = conn.execute("SELECT id FROM entities WHERE id = ? OR normalized_name = ? OR id = ?",
                            (ref, ref.lower(), ref.lower())).fetchall()
        out.append({r[0] for r in rows})
    return out


def documents_with_all(conn: sqlite3.Connection, groups: list[set[str]]) -> set[str]:
    """Documents that mention, for every group, at least one entity of the group."""
    result: set[str] | None = None
    for ids in groups:
        if not ids:
            return set()
        marks = ",".join("?" * len(ids))
        docs = {r[0] for r in conn.execute(
            f"SELECT DISTINCT document_id FROM entity_mentions WHERE entity_id IN ({marks})", sorted(ids))}
        result = docs if result is None else result & docs
    return result or set()
