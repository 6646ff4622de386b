"""The seed 000 §2 taxonomy."""
from __future__ import annotations

import pytest

from reference.errors import UnknownSlug
from reference.ontology import CONTEXTS, INSIGHTS, TASKS, check_context, check_insights, check_task

# copied from seed 000 §2.1-2.3
SEED_TASKS = """debug bugfix implement_feature refactor rewrite optimize architect design_api research explain
brainstorm generate_tests security_review dependency_update infra_update perf_investigation""".split()
SEED_INSIGHTS = "decision constraint assumption pitfall tradeoff invariant todo context".split()
SEED_CONTEXTS = "frontend backend auth billing ui infra devops data testing api".split()


def test_taxonomy_is_exactly_the_seed():
    assert sorted(TASKS) == sorted(f"task:{s}" for s in SEED_TASKS)
    assert sorted(INSIGHTS) == sorted(f"insight:{s}" for s in SEED_INSIGHTS)
    assert sorted(CONTEXTS) == sorted(f"context:{s}" for s in SEED_CONTEXTS)
    assert all(TASKS.values()) and all(INSIGHTS.values()) and all(CONTEXTS.values())


def test_checks_accept_known_slugs():
    assert check_task("task:debug") == "task:debug"
    assert check_task(None) is None
    assert check_insights(["insight:todo", "insight:decision"]) == ["insight:todo", "insight:decision"]
    assert check_insights(None) == [] and check_context(()) == []
    assert check_context(("context:api",)) == ["context:api"]


@pytest.mark.parametrize("call,arg,kind", [
    (check_task, "task:unknown", "task"), (check_task, "debug", "task"),
    (check_insights, ["insight:decision", "insight:bogus"], "insight"),
    (check_context, ["task:debug"], "context"),
])
def test_unknown_slugs_list_the_allowed_ones(call, arg, kind):
    with pytest.raises(UnknownSlug) as exc:
        call(arg)
    msg = str(exc.value)
    assert f"unknown {kind}" in msg and {"task": "task:debug", "insight": "insight:pitfall",
                                         "context": "context:auth"}[kind] in msg
