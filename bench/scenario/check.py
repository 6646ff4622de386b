"""`check_scenarios`: validate every scenario file of a folder and the suites that name them.

Unlike loading, which stops at the first error, a check reads every file and returns one problem
per bad file (`file:line: field: message`, the loader's first error in that file) plus one per suite
entry that names no scenario, so a user fixes them all in one pass.
"""
from __future__ import annotations

import json
from pathlib import Path

from bench.scenario.large import generated
from bench.scenario.loader import ScenarioError, load_scenario


def check_scenarios(folder: Path, oracle_root: Path) -> list[str]:
    """The problems found in `folder` (its `*.jsonl` files and `suites.json`), in file-name order."""
    problems = []
    names = set()
    for path in sorted(folder.glob("*.jsonl")):
        names.add(path.stem)
        try:
            load_scenario(path, oracle_root)
        except (ScenarioError, OSError) as exc:
            problems.append(str(exc))
    problems.extend(_suite_problems(folder / "suites.json", names))
    return problems


def _suite_problems(path: Path, names: set[str]) -> list[str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return [f"{path}: missing (it names the suites)"]
    except (OSError, json.JSONDecodeError) as exc:
        return [f"{path}: cannot read suites ({exc})"]
    if not isinstance(data, dict):
        return [f"{path}: must be a JSON object of suite name -> list of scenario names"]
    problems = []
    for suite, members in data.items():
        if not isinstance(members, list):
            problems.append(f"{path}: {suite}: must be a list of scenario names")
            continue
        for member in members:
            if member not in names and not _generated(member):
                problems.append(f"{path}: {suite}: unknown scenario {str(member)[:60]!r}")
    return problems


def _generated(name: object) -> bool:
    """A large-tier name: generated into the cache on first use, so no file is expected (large.py)."""
    return isinstance(name, str) and generated(name)

