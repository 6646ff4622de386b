"""SQL lookups of the relationship rules' vector neighbours: their memory ids and, where a rule reads it, their texts.

`neighbour_rows` serves a live batch (`live_ingest.py`): ids from `MemoryIds`, texts only
above the update threshold. `id_text_many` reads those texts, and serves one memory ingested
alone (`similarity.similar`). Neither parses a row's JSON fields.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from reference.knowledge.memory_ids import MemoryIds
from reference.tracker.codec import from_db, to_db


class Neighbour(NamedTuple):
    """What the relationship rules read of a vector neighbour: its id and text (no JSON fields parsed).

    In a live write `text` is None where no similarity to the neighbour is above the update
    threshold: only the contradiction check, above it, reads a neighbour's text."""

    id: str
    text: str | None


def neighbour_rows(ids: MemoryIds, conn: Any, near: list[list[tuple[int, float]]], pending: set[int],
                   update_threshold: float) -> dict[int, Neighbour]:
    """Key hash -> (id, text) of the batch's vector neighbours that are stored memories.

    Ids come from `ids` (no query for a memory seen before); `pending` are the batch's own
    key hashes. A text is read only where a similarity is above `update_threshold`, the one
    rule that reads it (elsewhere None)."""
    found = ids.lookup(conn, sorted({h for hs in near for h, _ in hs}), pending)
    wanted = sorted({h for hs in near for h, s in hs if s > update_threshold and h in found})
    texts = id_text_many(conn, wanted) if wanted else {}
    return {h: Neighbour(mid, texts[h].text if h in texts else None) for h, mid in found.items()}


def id_text_many(conn: Any, key_hashes: list[int]) -> dict[int, Neighbour]:
    """Key hash -> (id, text) of those of `key_hashes` that are stored memories."""
    out: dict[int, Neighbour] = {}
    for i in range(0, len(key_hashes), 500):
        part = [to_db(h) for h in key_hashes[i: i + 500]]
        for kh, mid, text in conn.execute(
                f"SELECT key_hash, id, text FROM memories WHERE key_hash IN ({','.join('?' * len(part))})", part):
            out[from_db(kh)] = Neighbour(mid, text)
    return out

