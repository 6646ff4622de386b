"""Cross-step validation: every alias, judged id and target operation a scenario names must exist.

- a `$name` in a step's args, `expect.fields` or `expect.equals` needs an earlier step with `"as": "name"`;
- each id in `expect.relevant` must be an alias some step binds, or an id a step defines
  (`graph_put_node`'s `id`, the `file:<path>` of each line of a `project_index_snapshot` file
  and of each file a `commit` changed);
- a target's `needs` must name known steps.

Errors name the file, the line and the field, quoting at most a short prefix of the value.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from bench.scenario.model import Scenario, Step
from bench.steps import STEPS


class UndefinedReference(ValueError):
    """Raised with `file:line: field: message`; the loader re-raises it as a ScenarioError."""


def _short(value: str) -> str:
    return value if len(value) <= 40 else value[:37] + "..."


def _refs(value: Any) -> Iterator[str]:
    """Every `$name` string inside `value` (nested lists and dicts too)."""
    if isinstance(value, str) and value.startswith("$") and len(value) > 1:
        yield value[1:]
    elif isinstance(value, list):
        for v in value:
            yield from _refs(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _refs(v)


def _snapshot_ids(scenario: Scenario, step: Step) -> set[str]:
    path = Path(step.raw_args.get("path", ""))
    path = path if path.is_absolute() else scenario.path.parent / path
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return set()  # a missing snapshot fails when the step runs; nothing is defined here
    out = set()
    for line in lines:
        try:
            out.add("file:" + json.loads(line)["path"])
        except (ValueError, KeyError, TypeError):
            continue
    return out


# step name -> the ids it defines besides its alias
_DEFINES: dict[str, Callable[[Scenario, Step], set[str]]] = {
    "graph_put_node": lambda sc, st: {st.raw_args["id"]} if isinstance(st.raw_args.get("id"), str) else set(),
    "project_index_snapshot": _snapshot_ids,
    "commit": lambda sc, st: {"file:" + f for f in st.raw_args.get("files", []) if isinstance(f, str)},
}


def check_references(scenario: Scenario) -> None:
    """Raise UndefinedReference at the first alias, judged id or target operation no step defines."""
    where = scenario.path
    for t in scenario.header.targets:
        unknown = [n for n in t.needs if n not in STEPS]
        if unknown:
            raise UndefinedReference(f"{where}:1: targets.needs: unknown step {_short(unknown[0])!r} "
                                  f"in target {_short(t.metric)!r}")
    bound: set[str] = set()
    defined: set[str] = set()
    for step in scenario.steps:
        expect = step.expect
        sources = [("args", step.raw_args)]
        if expect is not None:
            sources += [("expect.fields", expect.fields), ("expect.equals", expect.equals)]
        for field, value in sources:
            for name in _refs(value):
                if name not in bound:
                    raise UndefinedReference(f"{where}:{step.line}: {field}: alias {_short(name)!r} is not bound "
                                          "by an earlier step (\"as\")")
        if step.alias:
            bound.add(step.alias)
        if step.name in _DEFINES:
            defined |= _DEFINES[step.name](scenario, step)
    known = bound | defined
    for step in scenario.queries:
        missing = [r for r in step.expect.grades() if r not in known]
        if missing:
            raise UndefinedReference(f"{where}:{step.line}: expect.relevant: id {_short(missing[0])!r} is neither an "
                                  f"alias nor an id any step defines ({len(missing)} such ids)")
