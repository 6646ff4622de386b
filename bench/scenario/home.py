"""Where the project's data is: the folder holding `scenarios/` and `oracle_data/`, and where reports go.

`project_root()` is `CODEMEM_BENCH_HOME` if set, else the folder above the `bench`
package when it has them (a checkout or an editable install), else the
`codemem_bench_data` folder a wheel installs beside `bench` (see setup.py). Every
module that needs a path of the project (suites, the large tier, the history
generator, reports) starts here; this module imports none of them.
"""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from bench.scenario.loader import ScenarioError

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
