"""Operations of the knowledge capability (seed 001): entities, relationships, timeline, hybrid search, learn.

A backend that declares `Capability.KNOWLEDGE` implements these. Values are
plain JSON-ready data: times as ISO-8601 strings or Unix seconds, records as
dicts with the keys documented on each method.
"""
from __future__ import annotations

from typing import Any


class KnowledgeOps:
    """Seed 001's `oracle_*` tools."""

    def oracle_search(self, query: str, limit: int = 10, include_related: bool = True, after: Any = None,
                      before: Any = None, entity_filter: list[str] | None = None,
                      min_relevance: float | None = None) -> list[dict[str, Any]]:
        """Hybrid search; results best first: {id, score, matchType, relatedEntities, relationships}."""
        raise NotImplementedError

    def oracle_entities(self, type: str | None = None, limit: int = 100,
                        document_id: str | None = None) -> list[dict[str, Any]]:
        """Entities {id, name, type, normalized_name, mentions, documents}; `document_id` limits them to one memory."""
        raise NotImplementedError

    def oracle_relationships(self, document_id: str, type: str | None = None) -> list[dict[str, Any]]:
        """Relationships {source_id, target_id, type, confidence, metadata} where the memory is source or target."""
        raise NotImplementedError

    def oracle_timeline(self, after: Any = None, before: Any = None, limit: int | None = None) -> list[dict[str, Any]]:
        """Memories by effective date in [after, before), oldest first:
        {id, date, document_date, recorded_date, date_source, access_count, relevance, layer}."""
        raise NotImplementedError

    def oracle_learn(self, pattern: str, concepts: list[str] | None = None, source: str | None = None) -> str:
        """Store a learning (seed 001 §6); return its memory id."""
        raise NotImplementedError
