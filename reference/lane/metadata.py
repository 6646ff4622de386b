"""Memory Lane fields packed into a memory's `metadata` (seed 004 §4.1, Phase 2).

| key                | value                                                   |
|--------------------|---------------------------------------------------------|
| `memory_type`      | a `MemoryType` value                                    |
| `entity_slugs`     | sorted list of `type:name` slugs                        |
| `lane_version`     | "1"                                                     |
| `collection`       | "memory-lane" (seed 004 §5.2)                           |
| `confidence_score` | 0-100, only when the caller gives one                   |
| `feedback_score`, `feedback_count` | mirror of the feedback aggregate (feedback.py) |

Reading is lenient so that old and foreign memories take part (the seed's
forward-compatible validation): a missing or unknown `memory_type` reads as
`learning`, a malformed `entity_slugs` as none, and slugs not in canonical
form are skipped. Writing is strict (`LaneError`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reference.lane.entities import is_slug
from reference.lane.errors import LaneError
from reference.lane.taxonomy import DEFAULT_TYPE, MemoryType

LANE_VERSION = "1"
COLLECTION = "memory-lane"
_BY_VALUE = {t.value: t for t in MemoryType}


@dataclass(frozen=True)
class LaneFields:
    """What Memory Lane reads from one memory's metadata."""

    memory_type: MemoryType
    entity_slugs: tuple[str, ...]


def pack(memory_type: MemoryType, entity_slugs: list[str], confidence: int | None = None) -> dict[str, Any]:
    """The metadata keys a Memory Lane write adds."""
    out: dict[str, Any] = {"memory_type": memory_type.value, "entity_slugs": sorted(set(entity_slugs)),
                           "lane_version": LANE_VERSION, "collection": COLLECTION}
    if confidence is not None:
        if isinstance(confidence, bool) or not isinstance(confidence, int) or not 0 <= confidence <= 100:
            raise LaneError(f"confidence_score must be an integer 0-100, got {confidence!r}")
        out["confidence_score"] = confidence
    return out


def read(metadata: dict[str, Any] | None) -> LaneFields:
    """The lane fields of a memory, leniently (see the module notes)."""
    meta = metadata or {}
    raw_type = meta.get("memory_type")
    mtype = _BY_VALUE.get(raw_type, DEFAULT_TYPE) if isinstance(raw_type, str) else DEFAULT_TYPE
    raw = meta.get("entity_slugs")
    slugs = tuple(s for s in raw if is_slug(s)) if isinstance(raw, list) else ()
    return LaneFields(mtype, slugs)
