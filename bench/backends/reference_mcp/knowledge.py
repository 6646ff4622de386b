"""KnowledgeOps (seed 001 `oracle_*`) and LaneOps (seed 004 `memory-lane_*`) of `reference-mcp`, over MCP."""
from __future__ import annotations

from typing import Any

from bench.backends.ops.knowledge import KnowledgeOps
from bench.backends.ops.lane import LaneOps


def _given(**kwargs: Any) -> dict[str, Any]:
    return {k: v for k, v in kwargs.items() if v is not None}


class McpKnowledgePart(KnowledgeOps):
    """Mixin of `ReferenceMcpBackend`; `self.call(tool, **args)` is one MCP tool call."""

    call: Any

    def oracle_search(self, query, limit=10, include_related=True, after=None, before=None, entity_filter=None,
                      min_relevance=None) -> list[dict[str, Any]]:
        window = _given(after=after, before=before)
        return self.call("oracle_search", query=query, limit=limit, includeRelated=include_related,
                         **_given(temporalFilter=window or None, entityFilter=entity_filter,
                                  minRelevance=min_relevance))

    def oracle_entities(self, type=None, limit=100, document_id=None) -> list[dict[str, Any]]:
        return self.call("oracle_entities", limit=limit, **_given(type=type, documentId=document_id))

    def oracle_relationships(self, document_id, type=None) -> list[dict[str, Any]]:
        return self.call("oracle_relationships", documentId=document_id, **_given(type=type))

    def oracle_timeline(self, after=None, before=None, limit=None) -> list[dict[str, Any]]:
        return self.call("oracle_timeline", **_given(after=after, before=before, limit=limit))

    def oracle_learn(self, pattern, concepts=None, source=None) -> str:
        return self.call("oracle_learn", pattern=pattern, **_given(concepts=concepts, source=source))["id"]


class McpLanePart(LaneOps):
    """Mixin of `ReferenceMcpBackend`; `self.call(tool, **args)` is one MCP tool call."""

    call: Any

    def lane_store(self, information, memory_type=None, entities=None, paths=None, tags=None,
                   confidence_score=None) -> str:
        return self.call("memory-lane_store", information=information, **_given(
            type=memory_type, entities=entities, paths=paths, tags=tags, confidence_score=confidence_score))["id"]

    def lane_find(self, query, entities=None, limit=10) -> dict[str, Any]:
        return self.call("memory-lane_find", query=query, limit=limit, **_given(entities=entities))

    def lane_feedback(self, memory_id, signal) -> dict[str, Any]:
        return self.call("memory-lane_feedback", memory_id=memory_id, signal=signal)

    def lane_inject(self, query, session_id, limit=3) -> dict[str, Any]:
        return self.call("memory-lane_inject", query=query, session_id=session_id, limit=limit)
