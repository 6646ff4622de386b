"""The history generator (`scenarios/generators/history`), loaded from the project tree, not installed.

`history_generator()` returns the package, loaded once per process under the name
`codemem_history_generator`; `scenarios build` and the large tier (large.py) use it. The
generator never imports `bench/` or `reference/` (ground truth owes nothing to either).
"""
from __future__ import annotations

import importlib.util
import sys

from bench.scenario.home import project_root

_GENERATOR = "codemem_history_generator"


def history_generator():
    """The generator package scenarios/generators/history, loaded from the project tree (not installed)."""
    if _GENERATOR in sys.modules:
        return sys.modules[_GENERATOR]
    folder = project_root() / "scenarios" / "generators" / "history"
    spec = importlib.util.spec_from_file_location(_GENERATOR, folder / "__init__.py",
                                                  submodule_search_locations=[str(folder)])
    if spec is None or spec.loader is None:
        raise OSError(f"{folder}: history generator not found")
    module = importlib.util.module_from_spec(spec)
    sys.modules[_GENERATOR] = module
    spec.loader.exec_module(module)
    return module
