"""Where scenarios live and which ones make up a suite.

The project root (`home.project_root()`) is the folder holding `scenarios/` and
`oracle_data/`. Suites are named lists
of scenario names in `scenarios/suites.json`; a scenario name `x` is the file
`scenarios/x.jsonl`, or for the large tier a file generated into a cache
folder on first use (`large.py`). A scenario given as a path takes its judgements from an
`oracle_data/` folder beside it when there is one (what `scenarios build --out`
writes), else from the project's `oracle_data/`.
"""
from __future__ import annotations

import json
from pathlib import Path

from bench.scenario import large
from bench.scenario.home import project_root
from bench.scenario.loader import ScenarioError, load_scenario
from bench.scenario.model import Scenario


def scenarios_dir() -> Path:
    return project_root() / "scenarios"


def oracle_dir() -> Path:
    return project_root() / "oracle_data"


def suites() -> dict[str, list[str]]:
    path = scenarios_dir() / "suites.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ScenarioError(f"{path}: cannot read suites ({exc})") from None
    return {k: list(v) for k, v in data.items()}


def scenario_names() -> list[str]:
    return sorted(p.stem for p in scenarios_dir().glob("*.jsonl"))


def resolve(names_or_paths: list[str], suite: str = "default", skip: list[str] | tuple[str, ...] = ()
            ) -> list[Scenario]:
    """Load scenarios named (or given as paths); none given means the suite's list.

    `skip` leaves scenarios out of that list by name (a path's file name without `.jsonl`), before any is
    loaded; a name that is not in the list is an error, so a renamed scenario cannot make a skip silently
    run everything (CI skips one scenario of a suite by name).
    """
    if not names_or_paths:
        all_suites = suites()
        if suite not in all_suites:
            raise ScenarioError(f"unknown suite {suite!r}; known: {', '.join(all_suites)}")
        names_or_paths = all_suites[suite]
    if skip:
        names = [Path(item).stem if Path(item).suffix else item for item in names_or_paths]
        unknown = [name for name in skip if name not in names]
        if unknown:
            raise ScenarioError(f"--skip {', '.join(unknown)}: not among the scenarios to run "
                                f"({', '.join(names)})")
        names_or_paths = [item for name, item in zip(names, names_or_paths) if name not in skip]
    out = []
    for item in names_or_paths:
        path = Path(item)
        if not path.suffix:
            path = scenarios_dir() / f"{item}.jsonl"
            if not path.exists():
                path = large.path_for(item, project_root()) or path
            if not path.exists():
                raise ScenarioError(f"unknown scenario {item!r}; known: {', '.join(scenario_names())}")
        out.append(load_scenario(path, oracle_root_for(path)))
    return out


def oracle_root_for(path: Path) -> Path:
    """Judgements of a scenario file: `oracle_data/` beside it if there is one, else the project's."""
    local = path.parent / "oracle_data"
    return local if local.is_dir() else oracle_dir()
