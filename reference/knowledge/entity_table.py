"""SQL over `entities` and `entity_mentions`; every function takes the caller's connection."""
from __future__ import annotations

import json
import sqlite3
from collections import defaultdict

from reference.knowledge.extractor import mention_context
from reference.knowledge.model import Entity, ExtractedMention

_ENTITY_COLS = "e.id, e.name, e.type, e.normalized_name, e.metadata"


def _entity(row: tuple, mentions: int = 0, documents: int = 0) -> Entity:
    return Entity(row[0], row[1], row[2], row[3], json.loads(row[4] or "{}"), mentions, documents)


def add_mentions(conn: sqlite3.Connection, document_id: str, text: str, mentions: list[ExtractedMention],
                 now: str) -> None:
    """Upsert the entities (the first name seen is kept) and insert one mention row per occurrence."""
    for m in mentions:
        meta = json.dumps(m.metadata, sort_keys=True, separators=(",", ":"))
        conn.execute("INSERT INTO entities(id, name, type, normalized_name, metadata, created_at, updated_at) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET updated_at = excluded.updated_at",
                     (m.entity_id, m.name, m.type, m.normalized, meta, now, now))
        conn.execute("INSERT INTO entity_mentions(document_id, entity_id, context, position, end_position, surface, "
                     "confidence) VALUES (?, ?, ?, ?, ?, ?, ?)",
                     (document_id, m.entity_id, mention_context(text, m.position, m.end), m.position, m.end,
                      m.surface, m.confidence))


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


def sharing_documents(conn: sqlite3.Connection, document_id: str, exclude_types: tuple[str, ...]
                      ) -> dict[str, list[str]]:
    """Other documents that mention one of this document's entities (excluding some types) -> shared ids."""
    marks = ",".join("?" * len(exclude_types)) or "''"
    rows = conn.execute(
        "SELECT DISTINCT o.document_id, o.entity_id FROM entity_mentions d "
        "JOIN entity_mentions o ON o.entity_id = d.entity_id AND o.document_id != d.document_id "
        f"JOIN entities e ON e.id = d.entity_id WHERE d.document_id = ? AND e.type NOT IN ({marks}) "
        "ORDER BY o.document_id, o.entity_id", (document_id, *exclude_types)).fetchall()
    out: dict[str, list[str]] = defaultdict(list)
    for doc, ent in rows:
        out[doc].append(ent)
    return dict(out)


def sharing_ranked(conn: sqlite3.Connection, document_id: str, exclude_types: tuple[str, ...]
                   ) -> list[tuple[str, int]]:
    """Other documents sharing an entity with this one: (id, shared count), most shared, newest, id first."""
    marks = ",".join("?" * len(exclude_types)) or "''"
    return conn.execute(
        "SELECT o.document_id, count(DISTINCT o.entity_id) AS n FROM entity_mentions d "
        f"JOIN entities e ON e.id = d.entity_id AND e.type NOT IN ({marks}) "
        "JOIN entity_mentions o ON o.entity_id = d.entity_id AND o.document_id != d.document_id "
        "JOIN memories mm ON mm.id = o.document_id WHERE d.document_id = ? "
        "GROUP BY o.document_id ORDER BY n DESC, max(mm.created_at) DESC, o.document_id",
        (*exclude_types, document_id)).fetchall()


def shared_with(conn: sqlite3.Connection, document_id: str, others: list[str], exclude_types: tuple[str, ...]
                ) -> dict[str, list[str]]:
    """For each of `others`, the entities it shares with this document (sorted)."""
    if not others:
        return {}
    marks = ",".join("?" * len(exclude_types)) or "''"
    rows = conn.execute(
        "SELECT DISTINCT o.document_id, o.entity_id FROM entity_mentions d "
        f"JOIN entities e ON e.id = d.entity_id AND e.type NOT IN ({marks}) "
        "JOIN entity_mentions o ON o.entity_id = d.entity_id "
        f"WHERE d.document_id = ? AND o.document_id IN ({','.join('?' * len(others))}) "
        "ORDER BY o.document_id, o.entity_id", (*exclude_types, document_id, *others)).fetchall()
    out: dict[str, list[str]] = defaultdict(list)
    for doc, ent in rows:
        out[doc].append(ent)
    return dict(out)


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
