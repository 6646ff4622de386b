"""The task / insight / context taxonomy of seed 000 §2.

`check_task`, `check_insights` and `check_context` validate caller input and
raise `UnknownSlug` listing the allowed slugs; the descriptions are what the
MCP tools show an agent.
"""
from __future__ import annotations

from collections.abc import Iterable

from reference.errors import UnknownSlug

TASKS: dict[str, str] = {
    "task:debug": "Investigating and fixing bugs",
    "task:bugfix": "Implementing bug fixes",
    "task:implement_feature": "Adding new functionality",
    "task:refactor": "Restructuring existing code",
    "task:rewrite": "Complete reimplementation",
    "task:optimize": "Performance improvements",
    "task:architect": "System design decisions",
    "task:design_api": "API contract design",
    "task:research": "Investigation and learning",
    "task:explain": "Documentation/explanation",
    "task:brainstorm": "Ideation and exploration",
    "task:generate_tests": "Test creation",
    "task:security_review": "Security analysis",
    "task:dependency_update": "Dependency management",
    "task:infra_update": "Infrastructure changes",
    "task:perf_investigation": "Performance analysis",
}

INSIGHTS: dict[str, str] = {
    "insight:decision": "Architectural/design decision made",
    "insight:constraint": "Limitation or requirement identified",
    "insight:assumption": "Assumption being made",
    "insight:pitfall": "Known problem or gotcha",
    "insight:tradeoff": "Tradeoff being accepted",
    "insight:invariant": "Invariant that must be maintained",
    "insight:todo": "Deferred work item",
    "insight:context": "Background information",
}

CONTEXTS: dict[str, str] = {
    "context:frontend": "UI/client-side code",
    "context:backend": "Server-side code",
    "context:auth": "Authentication/authorization",
    "context:billing": "Payment/subscription logic",
    "context:ui": "User interface components",
    "context:infra": "Infrastructure/deployment",
    "context:devops": "CI/CD and operations",
    "context:data": "Data layer/database",
    "context:testing": "Test infrastructure",
    "context:api": "API endpoints/contracts",
}


def _check(kind: str, allowed: dict[str, str], slug: str) -> str:
    if slug not in allowed:
        raise UnknownSlug(f"unknown {kind} {slug!r}; allowed: {', '.join(allowed)}")
    return slug


def check_task(slug: str | None) -> str | None:
    """Return `slug` if it is a known task type (or None); else raise `UnknownSlug`."""
    return None if slug is None else _check("task", TASKS, slug)


def check_insights(slugs: Iterable[str] | None) -> list[str]:
    """Return the insight slugs as a list, each checked against the ontology."""
    return [_check("insight", INSIGHTS, s) for s in (slugs or [])]


def check_context(slugs: Iterable[str] | None) -> list[str]:
    """Return the context slugs as a list, each checked against the ontology."""
    return [_check("context", CONTEXTS, s) for s in (slugs or [])]
