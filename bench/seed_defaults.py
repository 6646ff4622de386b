"""The seed-default figure beside the tuned one, in every run of the reference backend.

Some of the reference's constants were fitted on the calibration split
(`bench/calibration/knowledge.py`): Memory Lane's floors, `UPDATE_THRESHOLD`,
`RELATE_THRESHOLD`, `DECAY_WEIGHT`, and the lexical ranking's (`reference/lexical/params.py`:
BM25 k1 and b, the vector, expansion and recency weights, galaxybrain's re-rank). `codemem-bench run` with `reference` or `reference:<ranker>`
replays, after the suite, the scenarios those constants can move with the
same backend at the seeds' values (`reference:[<ranker>+]seed-defaults`,
`reference.tuning.SEED_DEFAULTS`), and puts the figures side by side in each
such scenario's report section:

    "seed_defaults": {"backend": "reference:seed-defaults",
                      "figures": {"search_ndcg@10": {"tuned": 0.899, "seed": 0.719}, ...}}

A scenario is affected when a step calls a tool whose answer the constants
shape (`TUNED_TOOLS`: knowledge search and relationships, Memory Lane finds
and injections, file localisation), or, for a ranker built on fitted constants (every ranker:
the lexical ones, and Memory Lane's floors), any memory search. Other scenarios are not
replayed, which keeps the cost to a few scenarios of the default suite.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from bench.scenario.model import Scenario
from reference.rankers import DEFAULT_RANKER

SEED = "seed-defaults"
TUNED_TOOLS = frozenset({"oracle_search", "oracle_relationships", "memory-lane_find", "memory-lane_inject",
                         "project_locate_files"})   # the last: reference/lexical/files.py's FILES_TUNED
SEARCH_TOOLS = frozenset({"memory_search_structured", "memory_search"})
# every ranker but Memory Lane ranks with the lexical constants (reference/lexical/params.py); Memory Lane with its floors
RANKERS_ON_TUNED_LAYERS = frozenset({"galaxybrain", "oracle-hybrid", "memory-lane", "rrf"})
# the figures shown: the headline nDCG, the check rate, and each extra metric a fitted constant can move
FIGURES = ("ndcg@10", "check_rate", "search_ndcg@10", "relationship_accuracy", "relationship_typed_precision",
           "lane_intent_hit_rate", "lane_intent_boost_accuracy", "lane_feedback_accuracy", "lane_floor_accuracy",
           "lane_clarification_accuracy")


def seed_spec(backend_spec: str) -> str | None:
    """The seed-defaults twin of a reference spec (`reference:rrf` -> `reference:rrf+seed-defaults`), else None."""
    name, _, option = backend_spec.partition(":")
    if name != "reference" or SEED in option:
        return None
    return f"reference:{option}+{SEED}" if option and option != DEFAULT_RANKER else f"reference:{SEED}"


def affected(scenarios: list[Scenario], backend_spec: str) -> list[Scenario]:
    """The scenarios whose figures the fitted constants can move for this backend, in suite order."""
    ranker = backend_spec.partition(":")[2] or DEFAULT_RANKER
    tools = TUNED_TOOLS | (SEARCH_TOOLS if ranker.partition("+")[0] in RANKERS_ON_TUNED_LAYERS else frozenset())
    return [sc for sc in scenarios if any(st.name in tools for st in sc.steps)]


def figures(summary: dict[str, Any]) -> dict[str, float]:
    """The `FIGURES` a scenario's report section has."""
    out = {}
    for f in FIGURES:
        if f == "ndcg@10":
            v = (summary.get("quality") or {}).get(f)
        elif f == "check_rate":
            v = (summary.get("checks") or {}).get("rate")
        else:
            v = (summary.get("metrics") or {}).get(f)
        if v is not None:
            out[f] = v
    return out


def attach(summaries: dict[str, dict[str, Any]], seed: dict[str, dict[str, Any]], spec: str) -> None:
    """Put each seed-default figure beside the tuned one in `summaries` (the tuned run's sections)."""
    for name, s in seed.items():
        if name not in summaries:
            continue
        tuned, at_seed = figures(summaries[name]), figures(s)
        summaries[name]["seed_defaults"] = {
            "backend": spec,
            "figures": {f: {"tuned": tuned.get(f), "seed": at_seed.get(f)} for f in FIGURES
                        if f in tuned or f in at_seed}}


def planned(scenarios: list[Scenario], backend_spec: str) -> list[Scenario]:
    """What `run_seed_defaults` will replay for this suite and backend (nothing for a non-reference backend)."""
    return affected(scenarios, backend_spec) if seed_spec(backend_spec) else []


def run_seed_defaults(report: Any, scenarios: list[Scenario], out: Path, progress=None) -> list[str]:
    """Replay `planned(scenarios, report.backend)` at the seeds' values into `out`, attach them; their names.

    `out` gets that replay's own report (report.json, .md, .html) and telemetry. `progress` is a
    factory as `run_suite` takes (its scenario names get a ` [seed defaults]` suffix).
    """
    from bench.run import run_suite
    chosen = planned(scenarios, report.backend)
    if not chosen:
        return []
    spec = seed_spec(report.backend)
    named = (lambda name, total: progress(f"{name} [seed defaults]", total)) if progress else None
    seed = run_suite(spec, chosen, out, named)
    seed.save(out)
    attach(report.scenarios, seed.scenarios, spec)
    return [sc.name for sc in chosen]
