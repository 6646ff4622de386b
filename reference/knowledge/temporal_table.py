"""SQL over `temporal_data` and `memory_layers` (times stored as ISO text, returned as Unix seconds)."""
from __future__ import annotations

import sqlite3

from reference.knowledge.decay import calculate_relevance, direction, layer_for
from reference.knowledge.model import Temporal
from reference.knowledge.timefmt import from_text, to_text

_EFFECTIVE = "coalesce(t.document_date, t.recorded_date)"
_SELECT = ("SELECT t.document_id, t.document_date, t.recorded_date, t.last_accessed, t.access_count, "
           "t.relevance_score, t.date_source, t.importance, coalesce(l.layer, 'cold') FROM temporal_data t "
           "LEFT JOIN memory_layers l ON l.document_id = t.document_id")


def _row(r: tuple) -> Temporal:
    return Temporal(r[0], from_text(r[1]), from_text(r[2]), from_text(r[3]), r[4], r[5], r[6] or "none", r[7], r[8])


def insert(conn: sqlite3.Connection, document_id: str, document_date: float | None, recorded: float,
           date_source: str, importance: float) -> None:
    """A new memory: never accessed, relevance from its recorded date, layer from the rules."""
    relevance = calculate_relevance(recorded, 0, recorded, importance)
    conn.execute("INSERT OR REPLACE INTO temporal_data(document_id, document_date, recorded_date, last_accessed, "
                 "access_count, relevance_score, date_source, importance) VALUES (?, ?, ?, NULL, 0, ?, ?, ?)",
                 (document_id, to_text(document_date), to_text(recorded), relevance, date_source, importance))
    conn.execute("INSERT OR REPLACE INTO memory_layers(document_id, layer, promoted_at, demoted_at) "
                 "VALUES (?, ?, NULL, NULL)", (document_id, layer_for(0, relevance)))


def insert_many(conn: sqlite3.Connection, rows: list[tuple[str, float | None, float, str, float]]) -> None:
    """`insert` for several (document_id, document_date, recorded, date_source, importance), in order."""
    data, layers = [], []
    for document_id, document_date, recorded, date_source, importance in rows:
        relevance = calculate_relevance(recorded, 0, recorded, importance)
        data.append((document_id, to_text(document_date), to_text(recorded), relevance, date_source, importance))
        layers.append((document_id, layer_for(0, relevance)))
    # one statement per row (not tracker/multirow.py): multi-row statements here change the file's page layout
    conn.executemany("INSERT OR REPLACE INTO temporal_data(document_id, document_date, recorded_date, last_accessed, "
                     "access_count, relevance_score, date_source, importance) VALUES (?, ?, ?, NULL, 0, ?, ?, ?)", data)
    conn.executemany("INSERT OR REPLACE INTO memory_layers(document_id, layer, promoted_at, demoted_at) "
                     "VALUES (?, ?, NULL, NULL)", layers)


def restate(conn: sqlite3.Connection, document_id: str, document_date: float | None, date_source: str,
            importance: float) -> bool:
    """A memory's metadata changed: its document date, date source and importance as the new metadata gives them
    (`relevance_now` reads them at every search; the stored score and layer follow at the next access or
    `refresh`, as after any change of time). False when it has no row or they are unchanged (nothing written)."""
    new = (to_text(document_date), date_source, importance)
    row = conn.execute("SELECT document_date, date_source, importance FROM temporal_data WHERE document_id = ?",
                       (document_id,)).fetchone()
    if row is None or tuple(row) == new:
        return False
    conn.execute("UPDATE temporal_data SET document_date = ?, date_source = ?, importance = ? WHERE document_id = ?",
                 (*new, document_id))
    return True


def get_many(conn: sqlite3.Connection, ids: list[str]) -> dict[str, Temporal]:
    out: dict[str, Temporal] = {}
    for i in range(0, len(ids), 500):
        part = ids[i: i + 500]
        for r in conn.execute(f"{_SELECT} WHERE t.document_id IN ({','.join('?' * len(part))})", part):
            out[r[0]] = _row(r)
    return out


def relevance_now(t: Temporal, now: float) -> float:
    last = t.last_accessed if t.last_accessed is not None else t.recorded_date
    return calculate_relevance(last, t.access_count, now, t.importance)


def _set_layer(conn: sqlite3.Connection, t: Temporal, layer: str, now: float) -> None:
    move = direction(t.layer, layer)
    if move > 0:
        conn.execute("UPDATE memory_layers SET layer = ?, promoted_at = ? WHERE document_id = ?",
                     (layer, to_text(now), t.document_id))
    elif move < 0:
        conn.execute("UPDATE memory_layers SET layer = ?, demoted_at = ? WHERE document_id = ?",
                     (layer, to_text(now), t.document_id))


def record_access(conn: sqlite3.Connection, ids: list[str], now: float) -> None:
    """A retrieval: count it, stamp last_accessed, recompute relevance and the layer.

    Runs on every oracle search, so it reads only what the new values need (count, importance,
    layer; no dates parsed) and writes with one prepared statement per table: the same rows and
    values as one UPDATE per memory, in id order.
    """
    stamp, rows, moves = to_text(now), [], {1: [], -1: []}
    for i in range(0, len(ids), 500):
        part = ids[i: i + 500]
        rows += conn.execute("SELECT t.document_id, t.access_count, t.importance, coalesce(l.layer, 'cold') "
                             "FROM temporal_data t LEFT JOIN memory_layers l ON l.document_id = t.document_id "
                             f"WHERE t.document_id IN ({','.join('?' * len(part))})", part).fetchall()
    updates = []
    for doc, count, importance, layer in sorted(set(rows)):
        count += 1
        relevance = calculate_relevance(now, count, now, importance)
        updates.append((count, stamp, relevance, doc))
        new = layer_for(count, relevance)
        move = direction(layer, new)
        if move:
            moves[move].append((new, stamp, doc))
    conn.executemany("UPDATE temporal_data SET access_count = ?, last_accessed = ?, relevance_score = ? "
                     "WHERE document_id = ?", updates)
    conn.executemany("UPDATE memory_layers SET layer = ?, promoted_at = ? WHERE document_id = ?", moves[1])
    conn.executemany("UPDATE memory_layers SET layer = ?, demoted_at = ? WHERE document_id = ?", moves[-1])


def refresh(conn: sqlite3.Connection, now: float) -> dict[str, int]:
    """Recompute every relevance score and layer at `now`; return the layer counts."""
    rows = [_row(r) for r in conn.execute(_SELECT + " ORDER BY t.document_id")]
    for t in rows:
        relevance = relevance_now(t, now)
        conn.execute("UPDATE temporal_data SET relevance_score = ? WHERE document_id = ?", (relevance, t.document_id))
        _set_layer(conn, t, layer_for(t.access_count, relevance), now)
    return layer_counts(conn)


def layer_counts(conn: sqlite3.Connection) -> dict[str, int]:
    counts = dict(conn.execute("SELECT layer, count(*) FROM memory_layers GROUP BY layer").fetchall())
    return {k: counts.get(k, 0) for k in ("hot", "warm", "cold")}


def window(conn: sqlite3.Connection, after: float | None, before: float | None, limit: int | None) -> list[Temporal]:
    """Rows whose effective date is in [after, before), oldest first (then id)."""
    conds, params = _window_sql(after, before)
    sql = f"{_SELECT} WHERE {conds} ORDER BY {_EFFECTIVE}, t.document_id"
    if limit is not None:
        sql += " LIMIT ?"
        params.append(limit)
    return [_row(r) for r in conn.execute(sql, params)]


def ids_in_window(conn: sqlite3.Connection, after: float | None, before: float | None) -> set[str]:
    conds, params = _window_sql(after, before)
    return {r[0] for r in conn.execute(f"SELECT t.document_id FROM temporal_data t WHERE {conds}", params)}


def _window_sql(after: float | None, before: float | None) -> tuple[str, list]:
    conds, params = ["1"], []
    if after is not None:
        conds.append(f"{_EFFECTIVE} >= ?")
        params.append(to_text(after))
    if before is not None:
        conds.append(f"{_EFFECTIVE} < ?")
        params.append(to_text(before))
    return " AND ".join(conds), params


def delete_document(conn: sqlite3.Connection, document_id: str) -> None:
    conn.execute("DELETE FROM temporal_data WHERE document_id = ?", (document_id,))
    conn.execute("DELETE FROM memory_layers WHERE document_id = ?", (document_id,))


def known_ids(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT document_id FROM temporal_data")}
