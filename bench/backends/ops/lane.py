"""Operations of the Memory Lane capability (seed 004): typed store, entity-aware find, feedback, injection.

A backend that declares `Capability.MEMORY_LANE` implements these. Values are
plain JSON-ready data.
"""
from __future__ import annotations

from typing import Any


class LaneOps:
    """Seed 004's `memory-lane_*` tools and hooks."""

    def lane_store(self, information: str, memory_type: str | None = None, entities: list[str] | None = None,
                   paths: list[str] | None = None, tags: list[str] | None = None,
                   confidence_score: int | None = None) -> str:
        """Store a typed memory about entities (slugs `type:name`; `paths` are files touched); return its id.
        Without `memory_type` the backend classifies the text itself."""
        raise NotImplementedError

    def lane_find(self, query: str, entities: list[str] | None = None, limit: int = 10) -> dict[str, Any]:
        """Entity-aware search: {results: [{id, score, memory_type, entity_slugs, ...}] best first,
        clarification_required: bool, candidates: {mention: [slugs]}, entities: [...], intents: [...], mode}."""
        raise NotImplementedError

    def lane_feedback(self, memory_id: str, signal: str) -> dict[str, Any]:
        """Record `helpful` or `harmful` for a memory: {memory_id, helpful, harmful, state, factor}."""
        raise NotImplementedError

    def lane_inject(self, query: str, session_id: str, limit: int = 3) -> dict[str, Any]:
        """The prompt-injection hook: {memory_ids: [...] injected now, block: prompt text,
        clarification_required: bool, candidates: {...}}; never re-injects a memory within a session."""
        raise NotImplementedError
