"""The ranker protocol and the query it answers."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from reference.memories.record import SearchHit


@dataclass(frozen=True)
class Query:
    """A memory search: free text plus the structured filters of seed 000 §4.3.

    `session_id` lets session-aware rankers (Memory Lane) avoid re-surfacing a
    memory already injected in the same session; `options` carries ranker-
    specific settings (e.g. a temporal filter) without widening the protocol.
    `paths` are the files the agent is working on (seed 000 §6.1, seed 004's
    path-based entities): context, never a filter; a ranker may ignore it.
    """

    text: str | None = None
    task: str | None = None
    context: list[str] | None = None
    insights: list[str] | None = None
    tags: list[str] | None = None
    top_k: int = 10
    where_metadata: dict[str, list] | None = None
    session_id: str | None = None
    paths: tuple[str, ...] = ()    # the agent's working files (context a ranker may use or ignore)
    options: dict[str, Any] = field(default_factory=dict)


class Ranker(Protocol):
    """Answers memory searches over one open `MemoryStore`."""

    name: str

    def search(self, query: Query) -> list[SearchHit]:
        """Hits best first; scores descending, ties broken by id ascending."""
        ...
