"""Where scenarios live and which ones make up a suite.

The project root is the folder holding `scenarios/` and `oracle_data/`:
`CODEMEM_BENCH_HOME` if set, else the folder above the `bench` package when it
has them (a checkout or an editable install), else the `codemem_bench_data`
folder a wheel installs beside `bench` (see setup.py). Suites are named lists
of scenario names in `scenarios/suites.json`; a scenario name `x` is the file
`scenarios/x.jsonl`, or for the large tier a file generated into a cache
folder on first use (`large.py`). A scenario given as a path takes its judgements from an
`oracle_data/` folder beside it when there is one (what `scenarios build --out`
writes), else from the project's `oracle_data/`.
"""
from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

from bench.scenario import large
from bench.scenario.loader import ScenarioError, load_scenario
from bench.scenario.model import Scenario


HOME_ENV = "CODEMEM_BENCH_HOME"
DATA_PACKAGE = "codemem_bench_data"


def project_root() -> Path:
    """Where `scenarios/` and `oracle_data/` are (see the module docstring for the order)."""
    env = os.environ.get(HOME_ENV)
    if env:
        return Path(env)
    checkout = Path(__file__).resolve().parents[2]
    if is_checkout(checkout):
        return checkout
    installed = installed_data()
    if installed is None:
        raise ScenarioError(f"no scenarios found: {checkout} has no scenarios/suites.json and the "
                            f"{DATA_PACKAGE} data is not installed; set {HOME_ENV} to a checkout")
    return installed


def is_checkout(root: Path) -> bool:
    """True if `root` is a source tree: it holds the scenarios and the `bench` package itself."""
    return (root / "scenarios" / "suites.json").is_file() and (root / "bench").is_dir()


def installed_data() -> Path | None:
    """The folder of the `codemem_bench_data` package a wheel installs, if there is one."""
    spec = importlib.util.find_spec(DATA_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        if (Path(folder) / "scenarios" / "suites.json").is_file():
            return Path(folder)
    return None


def reports_dir() -> Path:
    """Default folder for reports: `reports/` of a checkout (or of `CODEMEM_BENCH_HOME`), else `./reports`.

    An installed copy never writes into site-packages."""
    root = project_root()
    return root / "reports" if os.environ.get(HOME_ENV) or is_checkout(root) else Path.cwd() / "reports"


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


def resolve(names_or_paths: list[str], suite: str = "default") -> list[Scenario]:
    """Load scenarios named (or given as paths); none given means the suite's list."""
    if not names_or_paths:
        all_suites = suites()
        if suite not in all_suites:
            raise ScenarioError(f"unknown suite {suite!r}; known: {', '.join(all_suites)}")
        names_or_paths = all_suites[suite]
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
