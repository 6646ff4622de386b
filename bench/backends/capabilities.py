"""The capabilities a backend can declare.

A backend lists what it supports in `Backend.capabilities`; the harness
never probes for methods. A scenario step that needs a capability the backend
does not declare is reported as `unsupported` for that backend.
"""
from __future__ import annotations

from enum import Enum


class Capability(str, Enum):
    """One thing a backend can do; values are stable strings used in reports."""

    MEMORY_WRITE = "memory.write"
    MEMORY_GET = "memory.get"
    MEMORY_LIST = "memory.list"
    MEMORY_SEARCH = "memory.search"            # free-text search over memories
    MEMORY_FILTERS = "memory.filters"          # task/context/insight/tag filters honoured
    KEYWORD_SEARCH = "memory.keyword_search"   # lexical (FTS) search
    MEMORY_DELETE = "memory.delete"
    METADATA_FILTERS = "memory.metadata_filters"  # equality filters on metadata (branch, ...)
    WORKING_PATHS = "memory.working_paths"     # search_memories(paths=...): the agent's working files used
    CODE_INDEX = "code.index"
    CODE_SEARCH = "code.search"
    GRAPH = "graph"
    POLICY_KV = "policy.kv"
    POINT_IN_TIME = "point_in_time"
    SNAPSHOT = "snapshot"
    PATTERNS = "patterns"
    REDACTION = "redaction"
    KNOWLEDGE = "knowledge"                    # entities, relationships, timeline (seed 001)
    MEMORY_LANE = "memory_lane"                # taxonomy, feedback, session recall (seed 004)
    PROJECT_MEMORY = "project_memory"          # commits, branches, placeholders (seed 002)

    def __str__(self) -> str:
        return self.value


def parse_capabilities(names: list[str]) -> frozenset[Capability]:
    """Turn capability strings into the enum; an unknown one is a clear error."""
    out = set()
    for n in names:
        try:
            out.add(Capability(n))
        except ValueError:
            allowed = ", ".join(c.value for c in Capability)
            raise ValueError(f"unknown capability {n!r}; known: {allowed}") from None
    return frozenset(out)
