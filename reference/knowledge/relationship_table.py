"""SQL over `relationships` (one row per ordered pair of memories)."""
from __future__ import annotations

import json
import math
import sqlite3

from reference.knowledge.model import Relationship
from reference.tracker.multirow import insert_rows

# one encoder for every row (json.dumps with options builds a new one per call)
_JSON = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode
_COLS = "source_id, target_id, type, confidence, metadata, created_at"


def _rel(row: tuple) -> Relationship:
    return Relationship(row[0], row[1], row[2], row[3], json.loads(row[4] or "{}"), row[5])


def insert(conn: sqlite3.Connection, rel: Relationship) -> None:
    conn.execute(f"INSERT OR IGNORE INTO relationships({_COLS}) VALUES (?, ?, ?, ?, ?, ?)",
                 (rel.source_id, rel.target_id, rel.type, rel.confidence,
                  _JSON(rel.metadata), rel.created_at))


def insert_many(conn: sqlite3.Connection, rels: list[Relationship]) -> None:
    """`insert` of each, in order (multi-row statements: the same rows and ids, see tracker/multirow.py)."""
    insert_rows(conn, f"INSERT OR IGNORE INTO relationships({_COLS}) VALUES", 6,
                [(r.source_id, r.target_id, r.type, r.confidence, _metadata_json(r.metadata), r.created_at)
                 for r in rels])


def insert_row_tuples(conn: sqlite3.Connection, rows: list[tuple]) -> None:
    """`insert_many` of rows already in column order, metadata as JSON text (`relationship_rows.py`)."""
    insert_rows(conn, f"INSERT OR IGNORE INTO relationships({_COLS}) VALUES", 6, rows)


def _metadata_json(meta: dict) -> str:
    """`_JSON(meta)`, the flat values the rules make written directly (keys sorted; strings ASCII-escaped,
    finite floats as their repr, as `json` writes them); any other value through the encoder itself."""
    if len(meta) == 1 and type(x := meta.get("similarity")) is float and math.isfinite(x):
        return f'{{"similarity":{x!r}}}'   # most rows: the similarity rule's
    parts = []
    for key in sorted(meta) if len(meta) > 1 else meta:
        if type(key) is not str:
            return _JSON(meta)   # json turns such keys into strings (or refuses to sort them)
        parts.append(f"{_STR(key)}:{value_json(meta[key])}")
    return "{" + ",".join(parts) + "}"


_STR = json.encoder.encode_basestring_ascii   # the escaping `ensure_ascii=True` applies to every string


def value_json(value: object) -> str:
    """The JSON of one value as `_JSON` writes it inside a dict."""
    kind = type(value)
    if kind is str:
        return _STR(value)
    if kind is float and math.isfinite(value):
        return repr(value)
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return repr(value)
    return _JSON(value)   # lists (sharedEntities), nested dicts, NaN, subclasses: the encoder's own text


def for_document(conn: sqlite3.Connection, document_id: str) -> list[Relationship]:
    """Relationships where the document is the source or the target, oldest row first."""
    rows = conn.execute(f"SELECT {_COLS} FROM relationships WHERE source_id = ? OR target_id = ? ORDER BY id",
                        (document_id, document_id)).fetchall()
    return [_rel(r) for r in rows]


def touching(conn: sqlite3.Connection, ids: list[str]) -> list[Relationship]:
    """Relationships with a source or target among `ids`."""
    out: list[Relationship] = []
    for i in range(0, len(ids), 400):
        part = ids[i: i + 400]
        marks = ",".join("?" * len(part))
        out += [_rel(r) for r in conn.execute(
            f"SELECT {_COLS} FROM relationships WHERE source_id IN ({marks}) OR target_id IN ({marks}) ORDER BY id",
            part + part)]
    return out


def into(conn: sqlite3.Connection, targets: list[str], types: tuple[str, ...]) -> list[Relationship]:
    """Relationships of the given types whose target is among `targets`."""
    out: list[Relationship] = []
    tmarks = ",".join("?" * len(types))
    for i in range(0, len(targets), 400):
        part = targets[i: i + 400]
        out += [_rel(r) for r in conn.execute(
            f"SELECT {_COLS} FROM relationships WHERE target_id IN ({','.join('?' * len(part))}) "
            f"AND type IN ({tmarks}) ORDER BY id", [*part, *types])]
    return out


def delete_document(conn: sqlite3.Connection, document_id: str) -> int:
    return conn.execute("DELETE FROM relationships WHERE source_id = ? OR target_id = ?",
                        (document_id, document_id)).rowcount


def count_by_type(conn: sqlite3.Connection) -> dict[str, int]:
    return dict(conn.execute("SELECT type, count(*) FROM relationships GROUP BY type ORDER BY type").fetchall())
