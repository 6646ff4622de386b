"""What in a report needs a person's attention first: unmet targets, then failed steps and lost writes.

Each item names the scenario file and line (`scenarios/smoke.jsonl:12`) so it can be opened
directly; a target is declared in the scenario's header, its line 1. Shared by the terminal,
report.md and report.html so they list the same things.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bench.report.formatting import fmt_metric, fmt_target


@dataclass(frozen=True)
class Item:
    """One thing to look at: where it is, what kind, and a one-line message."""

    scenario: str
    where: str  # file:line
    kind: str  # "unmet target" | "failed" | "error"
    message: str


def scenario_file(name: str, s: dict[str, Any]) -> str:
    """The scenario's file as recorded by the run, else a name that says it was not recorded."""
    return s.get("file") or f"<scenario {name}>"


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def unmet_targets(scenarios: dict[str, dict[str, Any]]) -> list[Item]:
    out = []
    for name, s in scenarios.items():
        for t in s.get("targets", []):
            if t["met"] is False:
                why = "its operations never ran" if t.get("needs") and not t.get("needs_ran") else \
                    f"got {fmt_metric(t['metric'], t['value'])}"
                out.append(Item(name, f"{scenario_file(name, s)}:1", "unmet target",
                                _short(f"{fmt_target(t)}: {why} ({t['source']})")))
    return out


def problems(scenarios: dict[str, dict[str, Any]]) -> list[Item]:
    out = []
    for name, s in scenarios.items():
        for p in s.get("problems", []):
            out.append(Item(name, f"{scenario_file(name, s)}:{p['line']}", p["status"],
                            _short(f"{p['step']}: {p['message']}")))
    return out


def not_run(scenarios: dict[str, dict[str, Any]]) -> list[Item]:
    """Steps whose checks did not run (the backend lacks a capability): each counts as failed in `checks`."""
    out = []
    for name, s in scenarios.items():
        for p in s.get("not_run", []):
            n = p.get("checks", 1)
            out.append(Item(name, f"{scenario_file(name, s)}:{p['line']}", "not run",
                            _short(f"{p['step']}: {n} check{'s' if n != 1 else ''} not run, {p['message']}")))
    return out


def attention(scenarios: dict[str, dict[str, Any]]) -> list[Item]:
    """Unmet targets first, then failed or erroring steps and lost writes, then checks that did not run
    (unsupported steps), in scenario order: together every check that did not pass."""
    return unmet_targets(scenarios) + problems(scenarios) + not_run(scenarios)


def attention_lines(scenarios: dict[str, dict[str, Any]], limit: int = 20) -> list[str]:
    """Plain-text lines (`file:line  kind  message`), at most `limit`, then how many more."""
    items = attention(scenarios)
    lines = [f"{i.where}  {i.kind}  {i.message}" for i in items[:limit]]
    if len(items) > limit:
        lines.append(f"... and {len(items) - limit} more (see report.md or report.html)")
    return lines


def in_run_order(report: dict[str, Any]) -> dict[str, Any]:
    """`report` with its scenarios in the run's order (`suite`): report.json is written with sorted keys."""
    scen = report.get("scenarios") or {}
    order = [n for n in report.get("suite") or [] if n in scen] + [n for n in scen if n not in (report.get("suite") or [])]
    return {**report, "scenarios": {n: scen[n] for n in order}}
