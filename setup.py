"""Package data that lives outside the Python packages (the rest of the metadata is in pyproject.toml).

`scenarios/` and `oracle_data/` stay top-level folders of the repository; the wheel carries them as
`codemem_bench_data/scenarios` and `codemem_bench_data/oracle_data` (data only, no `__init__.py`), where
`bench.scenario.suites.project_root()` finds them in an installed copy. An editable install and a checkout
keep reading the repository's own folders.
"""
from setuptools import find_packages, setup

DATA = {"codemem_bench_data.scenarios": "scenarios", "codemem_bench_data.oracle_data": "oracle_data"}

setup(
    packages=find_packages(include=["bench", "bench.*", "reference", "reference.*"]) + list(DATA),
    package_dir=DATA,
    package_data={
        **{name: ["**/*"] for name in DATA},
        "reference.patterns": ["builtin/*.json", "builtin/*.toml"],
        "bench.backends.mcp": ["adapters/*.toml"],
    },
    exclude_package_data={name: ["**/__pycache__/*", "**/*.pyc"] for name in DATA},
)
