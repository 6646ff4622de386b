"""`codemem-bench contract BACKEND [BACKEND...] [-k EXPR] [--list]`: run the contract suite against backends.

The contract suite is `tests/contract/` of the repository; the wheel carries a copy as
`codemem_bench_data/contract/` (setup.py), so a plug-in author who installed codemem-bench from a wheel can
run it without a checkout. The suite's files import each other as `tests.contract.*`, so they are copied
into a temporary `tests/contract/` and pytest runs there in a subprocess, with
`CODEMEM_BENCH_CONTRACT_BACKENDS` naming the backends (tests/contract/conftest.py). Needs pytest
(the `[test]` or `[contract]` extra). Exit code: pytest's (0 all passed or skipped, 1 a test failed,
2 input error, 5 nothing collected).
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from importlib.util import find_spec
from pathlib import Path

NAME = "contract"
HELP = "Run the contract suite (tests/contract, shipped in the wheel) against one or more backends."


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("backends", nargs="+", metavar="BACKEND",
                   help="backend specs, e.g. reference, reference:memory-lane, mcp:server-memory, a plug-in's name")
    p.add_argument("-k", dest="keyword", metavar="EXPR", help="only tests matching this pytest -k expression")
    p.add_argument("--list", action="store_true", help="list the tests that would run, run none")
    p.add_argument("--pytest-arg", action="append", default=[], metavar="ARG",
                   help="pass ARG to pytest (repeatable), e.g. --pytest-arg=-x")


def suite_dir() -> Path:
    """The contract suite's folder: the project's `tests/contract/` (a checkout or CODEMEM_BENCH_HOME), else the
    copy an installed wheel carries; ValueError when neither is there."""
    from bench.scenario.home import installed_data, project_root
    candidates = []
    try:
        candidates.append(project_root() / "tests" / "contract")
    except Exception:   # noqa: BLE001 - no project data at all: the installed copy may still be there
        pass
    data = installed_data()
    if data is not None:
        candidates.append(data / "contract")
    for c in candidates:
        if (c / "conftest.py").is_file():
            return c
    raise ValueError("the contract suite is not installed: no tests/contract/conftest.py in "
                     + (", ".join(str(c) for c in candidates) or "any project folder"))


def run(args: argparse.Namespace) -> int:
    from bench.backends.registry import backend_class
    if find_spec("pytest") is None:
        raise ValueError("the contract suite needs pytest: pip install 'codemem-bench[contract]'")
    for spec in args.backends:
        backend_class(spec.partition(":")[0])   # an unknown name fails here, listing the known ones
    source = suite_dir()
    with tempfile.TemporaryDirectory(prefix="codemem-contract-") as tmp:
        dest = Path(tmp) / "tests" / "contract"
        shutil.copytree(source, dest, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        env = {**os.environ, "CODEMEM_BENCH_CONTRACT_BACKENDS": ",".join(args.backends),
               "PYTHONPATH": os.pathsep.join([tmp, *filter(None, [os.environ.get("PYTHONPATH")])])}
        cmd = [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "--import-mode=importlib",
               "--rootdir", tmp, "-c", os.devnull, str(dest)]
        cmd += ["-k", args.keyword] if args.keyword else []
        cmd += ["--collect-only"] if args.list else []
        cmd += args.pytest_arg
        print(f"contract suite from {source} against {', '.join(args.backends)}", flush=True)
        return subprocess.run(cmd, cwd=tmp, env=env).returncode
