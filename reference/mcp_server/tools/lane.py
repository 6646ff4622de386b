"""Seed 004 Memory Lane tools over the store's `MemoryLane`.

`memory-lane_store` and `memory-lane_find` are the seed's tools;
`memory-lane_feedback` and `memory-lane_inject` are the harness's names for the
seed's feedback scoring and hook-based injection (bench/steps/lane.py).
Arguments as the harness's steps: `type` is the memory type (omitted: the lane
classifies the text), `paths` the files touched (path-based entity slugs).
Feedback is recorded under the session id the harness set, if any.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from reference.lane import MemoryLane
from reference.memories.args import check_memory_id
from reference.mcp_server.context import ServerContext
from reference.mcp_server.registry import ToolRegistry, argument
from reference.mcp_server.routing import routing
from reference.mcp_server.tools import results

MemoryType = Literal["correction", "decision", "commitment", "insight", "learning", "confidence", "pattern_seed",
                     "cross_agent", "workflow_note", "gap"]
Entities = Annotated[list[str] | None, Field(description='Entity slugs type:name, e.g. ["feature:auth", '
                                                         '"project:shop"]')]


def register(server: ToolRegistry, ctx: ServerContext) -> None:
    lane = MemoryLane.for_store(ctx.store)

    @server.tool(name="memory-lane_store", routing=routing("memory-lane_store"))
    def lane_store(
        information: Annotated[str, Field(description="What to remember")],
        type: Annotated[MemoryType | None, Field(description="Memory type; omitted: classified from the text")] = None,
        entities: Entities = None,
        paths: Annotated[list[str] | None, Field(description="Files touched (their folders name entities)")] = None,
        tags: Annotated[list[str] | None, Field(description="Free-form tags")] = None,
        confidence_score: Annotated[int | None, Field(ge=0, le=100, description="Confidence 0-100")] = None,
    ) -> dict[str, Any]:
        """Store a typed memory about entities (corrections and decisions weigh most). Returns the entry."""
        entry = lane.store(information, memory_type=type, entities=entities, paths=paths, tags=tags,
                           confidence=confidence_score)
        return results.memory(entry)

    @server.tool(name="memory-lane_find", routing=routing("memory-lane_find"))
    def lane_find(
        query: Annotated[str, Field(description="What to recall")],
        entities: Entities = None,
        limit: Annotated[int, Field(ge=1, le=1000, description="Maximum results")] = 10,
    ) -> dict[str, Any]:
        """Entity-aware search with intent boosting and feedback scores.

        Returns {results, clarification_required, candidates, entities, intents, mode}; when a name in the
        query fits several entities, clarification_required is true and candidates lists them."""
        return lane.find(query, entities=entities, top_k=limit).to_dict()

    @server.tool(name="memory-lane_feedback", routing=routing("memory-lane_feedback"))
    def lane_feedback(
        memory_id: Annotated[str, Field(description="The memory the signal is about")],
        signal: Annotated[Literal["helpful", "harmful"], Field(description="helpful or harmful")],
    ) -> dict[str, Any]:
        """Record that a recalled memory was helpful or harmful (+10% / -50% on later rankings)."""
        with argument("memory_id"):
            check_memory_id(memory_id)
        return lane.feedback(memory_id, signal, session_id=ctx.session["session_id"]).to_dict()

    @server.tool(name="memory-lane_inject", routing=routing("memory-lane_inject"))
    def lane_inject(
        query: Annotated[str, Field(description="The user's prompt")],
        session_id: Annotated[str, Field(min_length=1, description="The agent session")],
        limit: Annotated[int, Field(ge=1, le=100, description="Maximum memories to inject")] = 3,
    ) -> dict[str, Any]:
        """The prompt-injection hook: the best memories not yet injected in this session, as a prompt block."""
        return lane.inject(query, session_id, limit).to_dict()
