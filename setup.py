"""Package data that lives outside the Python packages (the rest of the metadata is in pyproject.toml).

`scenarios/` and `oracle_data/` stay top-level folders of the repository; the wheel carries them as
`codemem_bench_data/scenarios` and `codemem_bench_data/oracle_data` (data only, no `__init__.py`), where
`bench.scenario.home.project_root()` finds them in an installed copy. An editable install and a checkout
keep reading the repository's own folders. Every folder with an importable name is declared a (namespace)
package, as setuptools asks; folders without one (`sqlite-utils`) ride along as data of the nearest package.
"""
import os

from setuptools import find_namespace_packages, find_packages, setup

DATA = {"codemem_bench_data.scenarios": "scenarios", "codemem_bench_data.oracle_data": "oracle_data",
        # the contract suite, run from an install by `codemem-bench contract BACKEND` (bench/cli/contract_cmd.py)
        "codemem_bench_data.contract": "tests/contract"}
# committed figures report.html places a run beside (bench/report/standing.py): these files only, not
# reports/ as a whole (a build machine's reports/runs/ and reports/latest/ must not ride along)
REPORT_FILES = ["readme/*.json", "readme/reference/run.json", "baseline/reference/report.json"]
DATA_FOLDERS = {"reference.patterns.builtin": "reference/patterns/builtin",
                "bench.backends.mcp.adapters": "bench/backends/mcp/adapters"}
SKIP = {"__pycache__"}


def data_packages(package: str, folder: str) -> dict[str, list[str]]:
    """package name -> globs of its data files, for `folder` and every folder below it."""
    out: dict[str, list[str]] = {}

    def visit(pkg: str, path: str, rel: str) -> None:
        out.setdefault(pkg, []).append(f"{rel}*" if rel else "*")
        for entry in sorted(os.scandir(path), key=lambda e: e.name):
            if not entry.is_dir() or entry.name in SKIP:
                continue
            if entry.name.isidentifier():
                visit(f"{pkg}.{entry.name}", entry.path, "")
            else:
                visit(pkg, entry.path, f"{rel}{entry.name}/")

    visit(package, folder, "")
    return out


package_data = {}
for name, folder in DATA.items():
    package_data.update(data_packages(name, folder))
for name, folder in DATA_FOLDERS.items():
    package_data.update(data_packages(name, folder))
package_data["reference.mcp_server"] = ["tool_listing.json"]   # the fast-start front's saved answers
package_data["codemem_bench_data.reports"] = REPORT_FILES
code = find_packages(include=["bench", "bench.*", "reference", "reference.*"])
package_dir = {name: DATA[top] + name[len(top):].replace(".", "/") for name in package_data for top in DATA
               if name == top or name.startswith(top + ".")}
package_dir["codemem_bench_data.reports"] = "reports"

setup(
    packages=sorted(set(code) | set(package_data)),
    package_dir=package_dir,
    package_data=package_data,
    exclude_package_data={"": ["*.pyc"]},
)
