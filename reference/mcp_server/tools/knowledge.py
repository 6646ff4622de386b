"""Seed 001 `oracle_*` tools over the store's `KnowledgeLayer`.

The layer is attached when the server starts (as the reference backend does),
so every memory any tool writes gets entities, mentions, temporal data and
relationships. Arguments are the seed's names in camelCase with `options`
flattened, as the harness's steps use them: `oracle_search(query, limit,
includeRelated, temporalFilter{after, before}, entityFilter, minRelevance)`;
extensions: `documentId` on `oracle_entities`, `type` on
`oracle_relationships`. Times are ISO-8601 strings or Unix seconds.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from reference.clock import iso
from reference.knowledge import KnowledgeLayer
from reference.knowledge.decay import calculate_relevance
from reference.memories.args import check_memory_id
from reference.mcp_server.context import ServerContext
from reference.mcp_server.limits import check_time
from reference.mcp_server.registry import ToolRegistry, argument
from reference.mcp_server.routing import routing
from reference.mcp_server.tools import results

Time = Annotated[str | float | None, Field(description="ISO-8601 date/time or Unix seconds")]
MemoryId = Annotated[str, Field(description='A memory id, e.g. "mem:a1b2c3d4"')]


class TemporalFilter(BaseModel):
    """Only memories whose effective date is in [after, before)."""

    model_config = ConfigDict(extra="forbid")
    after: Time = None
    before: Time = None


def check_times(**times: str | float | None) -> None:
    """Numeric times must be Unix seconds in the server's range (`limits.check_time`)."""
    for name, value in times.items():
        if isinstance(value, (int, float)):
            check_time(name, value)


def timeline_row(t: Any, now: float) -> dict[str, Any]:
    """One `oracle_timeline` entry (dates as ISO text, relevance decayed to now)."""
    last = t.last_accessed if t.last_accessed is not None else t.recorded_date
    return {"id": t.document_id, "date": iso(t.effective_date),
            "document_date": iso(t.document_date) if t.document_date is not None else None,
            "recorded_date": iso(t.recorded_date), "date_source": t.date_source,
            "access_count": t.access_count, "layer": t.layer,
            "relevance": round(calculate_relevance(last, t.access_count, now, t.importance), 6)}


def register(server: ToolRegistry, ctx: ServerContext) -> None:
    layer = KnowledgeLayer.for_store(ctx.store)

    @server.tool(routing=routing("oracle_search"))
    def oracle_search(
        query: Annotated[str, Field(description="What to look for")],
        limit: Annotated[int, Field(ge=1, le=1000, description="Maximum results")] = 10,
        includeRelated: Annotated[bool, Field(description="Add memories linked by relationships")] = True,
        temporalFilter: TemporalFilter | None = None,
        entityFilter: Annotated[list[str] | None, Field(
            description='Only memories mentioning these entities, e.g. ["feature:auth", "file:src/a.py"]')] = None,
        minRelevance: Annotated[float | None, Field(description="Drop results below this relevance")] = None,
    ) -> list[dict[str, Any]]:
        """Hybrid search (code-aware keywords + vector, shared files, recency, relationships, time filter).

        Returns memories best first: id, score, matchType, components, relatedEntities, relationships."""
        tf = temporalFilter or TemporalFilter()
        check_times(after=tf.after, before=tf.before)
        hits = layer.search(query, limit=limit, include_related=includeRelated, after=tf.after, before=tf.before,
                            entity_filter=entityFilter, min_relevance=minRelevance)
        return [h.to_dict() for h in hits]

    @server.tool(routing=routing("oracle_entities"))
    def oracle_entities(
        type: Annotated[str | None, Field(description="Entity type: file, dir, feature, project, time, ...")] = None,
        limit: Annotated[int, Field(ge=1, le=100_000, description="Maximum entities")] = 100,
        documentId: Annotated[str | None, Field(description="Extension: only the entities of this memory")] = None,
    ) -> list[dict[str, Any]]:
        """Entities in the knowledge base, most mentioned first (or those of one memory)."""
        if documentId is not None:
            with argument("documentId"):
                check_memory_id(documentId)
            ents = [e for e in layer.document_entities(documentId) if type is None or e.type == type]
            return [e.to_dict() for e in ents[:limit]]
        return [e.to_dict() for e in layer.entities(type=type, limit=limit)]

    @server.tool(routing=routing("oracle_relationships"))
    def oracle_relationships(
        documentId: MemoryId,
        type: Annotated[Literal["updates", "extends", "derives", "relates_to"] | None, Field(
            description="Extension: only this relationship type")] = None,
    ) -> list[dict[str, Any]]:
        """Relationships of a memory (updates, extends, derives, relates_to), where it is source or target."""
        with argument("documentId"):
            check_memory_id(documentId)
        return [r.to_dict() for r in layer.relationships(documentId, type=type)]

    @server.tool(routing=routing("oracle_timeline"))
    def oracle_timeline(after: Time = None, before: Time = None,
                        limit: Annotated[int | None, Field(ge=1, le=100_000)] = None) -> list[dict[str, Any]]:
        """Memories by effective date in [after, before), oldest first, with relevance and layer."""
        check_times(after=after, before=before)
        now = ctx.clock.now()
        return [timeline_row(t, now) for t in layer.timeline(after=after, before=before, limit=limit)]

    @server.tool(routing=routing("oracle_learn"))
    def oracle_learn(
        pattern: Annotated[str, Field(description="The learning, in a sentence or two")],
        concepts: Annotated[list[str] | None, Field(description="Concepts it is about (become entities)")] = None,
        source: Annotated[str | None, Field(description='Where it came from, e.g. "Conversation 42"')] = None,
    ) -> dict[str, Any]:
        """Store a learning (seed 001 §6); returns the memory entry."""
        return results.memory(layer.learn(pattern, concepts=concepts, source=source))
