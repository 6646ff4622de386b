"""Records of the knowledge layer: extracted mentions, entities, relationships, timeline rows, hits."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

RELATION_TYPES = ("updates", "extends", "derives", "relates_to")
# When two rules link the same pair, the first in this order wins.
RELATION_PRIORITY = {"updates": 0, "extends": 1, "derives": 2, "relates_to": 3}
LAYERS = ("hot", "warm", "cold")


def entity_id(type_: str, normalized: str) -> str:
    """The entity's id: `type:normalized_name` (e.g. `feature:auth`, `file:src/a.py`)."""
    return f"{type_}:{normalized}"


@dataclass(frozen=True)
class ExtractedMention:
    """One occurrence of an entity in a text, as the extractor found it."""

    type: str
    name: str            # surface-derived display name (first seen wins in `entities`)
    normalized: str
    position: int | None  # character offset in the text; None for entities given outside the text
    end: int | None
    surface: str
    confidence: float
    rule: str
    metadata: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def entity_id(self) -> str:
        return entity_id(self.type, self.normalized)


@dataclass(frozen=True)
class Entity:
    """A row of `entities` plus how many mentions it has."""

    id: str
    name: str
    type: str
    normalized_name: str
    metadata: dict[str, Any]
    mentions: int = 0
    documents: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "type": self.type, "normalized_name": self.normalized_name,
                "metadata": dict(self.metadata), "mentions": self.mentions, "documents": self.documents}


@dataclass(frozen=True)
class Relationship:
    """A row of `relationships`: `source_id` (newer memory) `type` `target_id` (older memory)."""

    source_id: str
    target_id: str
    type: str
    confidence: float
    metadata: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    created_at: str | None = None

    def other(self, memory_id: str) -> str:
        return self.target_id if self.source_id == memory_id else self.source_id

    def to_dict(self) -> dict[str, Any]:
        return {"source_id": self.source_id, "target_id": self.target_id, "type": self.type,
                "confidence": self.confidence, "metadata": dict(self.metadata), "created_at": self.created_at}


_new = object.__new__


def mention(type_: str, name: str, normalized: str, position: int | None, end: int | None, surface: str,
            confidence: float, rule: str, metadata: dict[str, Any]) -> ExtractedMention:
    """`ExtractedMention(...)` built without the frozen dataclass's `__init__` (the extractor makes one per
    occurrence): the same object."""
    m = _new(ExtractedMention)
    m.__dict__.update(type=type_, name=name, normalized=normalized, position=position, end=end, surface=surface,
                      confidence=confidence, rule=rule, metadata=metadata)
    return m


def relationship(source_id: str, target_id: str, type_: str, confidence: float, metadata: dict[str, Any],
                 created_at: str | None) -> Relationship:
    """`Relationship(...)` built without the frozen dataclass's `__init__` (one `object.__setattr__` per
    field): the same object, for the write path, which makes about ten per memory."""
    rel = _new(Relationship)
    rel.__dict__.update(source_id=source_id, target_id=target_id, type=type_, confidence=confidence,
                        metadata=metadata, created_at=created_at)
    return rel


@dataclass(frozen=True)
class Temporal:
    """A memory's `temporal_data` and `memory_layers` rows (times as Unix seconds)."""

    document_id: str
    document_date: float | None
    recorded_date: float
    last_accessed: float | None
    access_count: int
    relevance_score: float
    date_source: str
    importance: float
    layer: str

    @property
    def effective_date(self) -> float:
        """The date the timeline and temporal filters use: document date, else recorded date."""
        return self.document_date if self.document_date is not None else self.recorded_date


@dataclass
class OracleHit:
    """One oracle_search result (seed 001 §5 `SearchResult`)."""

    id: str
    score: float
    match_type: str                     # keyword | semantic | hybrid | related
    components: dict[str, float] = field(default_factory=dict)
    related_entities: list[str] = field(default_factory=list)
    relationships: list[Relationship] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "score": self.score, "matchType": self.match_type,
                "components": dict(self.components), "relatedEntities": list(self.related_entities),
                "relationships": [r.to_dict() for r in self.relationships]}
