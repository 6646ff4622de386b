"""Checks of the arguments callers pass to the knowledge layer's reads, search and `learn`.

Each raises `KnowledgeError` naming the argument (as the MCP tools name it) and the problem.
"""
from __future__ import annotations

import math
from typing import Any

from reference.knowledge.errors import KnowledgeError
from reference.knowledge.model import RELATION_TYPES


def check_limit(limit: Any) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise KnowledgeError(f"limit must be a positive integer, got {limit!r}")
    return limit


def check_relation_type(type: str | None) -> None:
    """None (every type) or one of `RELATION_TYPES`."""
    if type is not None and type not in RELATION_TYPES:
        raise KnowledgeError(f"unknown relationship type {type!r}; expected one of {', '.join(RELATION_TYPES)}")


def check_search_args(text: Any, entity_filter: Any, min_relevance: Any) -> None:
    """`oracle_search`'s query, entityFilter and minRelevance (the time window is checked where it is parsed)."""
    if not isinstance(text, str):
        raise KnowledgeError(f"oracle_search: query must be a string, got {type(text).__name__}")
    if entity_filter is not None and (isinstance(entity_filter, str)
                                      or not all(isinstance(e, str) for e in entity_filter)):
        raise KnowledgeError(f"oracle_search: entityFilter must be a list of strings, got {entity_filter!r}")
    if min_relevance is not None and (isinstance(min_relevance, bool) or not isinstance(min_relevance, (int, float))
                                      or not math.isfinite(min_relevance)):
        raise KnowledgeError(f"oracle_search: minRelevance must be a number, got {min_relevance!r}")


def learning_metadata(pattern: Any, concepts: Any, source: Any) -> dict[str, Any]:
    """`oracle_learn`'s arguments checked, as the metadata of the learning's memory (`kind`, `concepts`, `source`)."""
    if not isinstance(pattern, str) or not pattern.strip():
        raise KnowledgeError("oracle_learn: pattern must be a non-empty string")
    if concepts is not None and (isinstance(concepts, str) or not all(isinstance(c, str) for c in concepts)):
        raise KnowledgeError(f"oracle_learn: concepts must be a list of strings, got {concepts!r}")
    if source is not None and not isinstance(source, str):
        raise KnowledgeError(f"oracle_learn: source must be a string, got {type(source).__name__}")
    meta: dict[str, Any] = {"kind": "learning"}
    if concepts:
        meta["concepts"] = [" ".join(c.split()) for c in concepts if c.strip()]
    if source:
        meta["source"] = source
    return meta
