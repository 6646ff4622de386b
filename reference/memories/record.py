"""Memory entries and search hits as the store returns them, and the §3.2 blob record.

`MemoryEntry` mirrors a `memories` row (seed 000 §3.1) plus `metadata`;
`memory_blob_record` renders the JSON record appended to `blob.dat`
(seed 000 §3.2: the seed's fields in the seed's order, `created_at` as ISO
UTC via `reference.clock.iso`; `metadata` is appended only when non-empty).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from reference.clock import iso


@dataclass(frozen=True)
class MemoryEntry:
    """One stored memory. Lists are tuples so the entry is hashable and immutable."""

    id: str
    key_hash: int
    task: str | None
    insights: tuple[str, ...]
    context: tuple[str, ...]
    symbol_keys: tuple[int, ...]
    text: str
    tags: tuple[str, ...]
    metadata: dict[str, Any] = field(compare=True, hash=False)
    created_at: float
    updated_at: float | None
    blob_offset: int | None
    blob_length: int | None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict (lists, not tuples; `created_at_iso` added for readers)."""
        return {
            "id": self.id,
            "key_hash": self.key_hash,
            "task": self.task,
            "insights": list(self.insights),
            "context": list(self.context),
            "symbol_keys": list(self.symbol_keys),
            "text": self.text,
            "tags": list(self.tags),
            "metadata": json.loads(json.dumps(self.metadata)),
            "created_at": self.created_at,
            "created_at_iso": iso(self.created_at),
            "updated_at": self.updated_at,
            "blob_offset": self.blob_offset,
            "blob_length": self.blob_length,
        }


@dataclass(frozen=True)
class SearchHit:
    """One ranked result: `id` is the canonical key ("mem:…", "file:…", "sym:…", "chunk:…").

    `entry` is set for memories; `meta` carries what a code hit needs to be shown
    (path, lines, symbol name) and, for some rankers, the component scores.
    """

    id: str
    kind: str
    score: float
    entry: MemoryEntry | None = None
    meta: dict[str, Any] = field(default_factory=dict, compare=True, hash=False)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "score": self.score}
        if self.entry is not None:
            out["entry"] = self.entry.to_dict()
        if self.meta:
            out["meta"] = dict(self.meta)
        return out


# one encoder for every record (json.dumps with options builds a new one per call); same text
_RECORD_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=False).encode


def memory_blob_record(entry: MemoryEntry) -> bytes:
    """The seed 000 §3.2 JSON record for `entry`, as UTF-8 bytes (deterministic)."""
    record: dict[str, Any] = {
        "id": entry.id,
        "task": entry.task,
        "insights": list(entry.insights),
        "context": list(entry.context),
        "symbol_keys": list(entry.symbol_keys),
        "text": entry.text,
        "tags": list(entry.tags),
        "created_at": iso(entry.created_at),
    }
    if entry.metadata:
        record["metadata"] = entry.metadata
    return _RECORD_JSON(record).encode("utf-8")
