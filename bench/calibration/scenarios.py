"""The calibration scenarios: built from `scenarios/data/`, read back as writes and judged queries in order.

The history tasks' calibration scenarios (`<data>-{blame,history,files,...}-calibration`: queries about the
commits at positions divisible by 10 only, never in a suite, never scored; scenarios/README.md,
"Calibration split") are what `lexical.py` and `files.py` replay; `lane.py` generates its own in memory.
"""
from __future__ import annotations

import argparse
import contextlib
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

DATASETS = ("sqlite-utils", "httpx", "attrs")


def build(data_root: Path, out: Path) -> None:
    """`codemem-bench scenarios build DATA --out OUT --split calibration` for each dataset."""
    for d in DATASETS:
        subprocess.run([sys.executable, "-m", "bench.cli.main", "scenarios", "build", str(data_root / d),
                        "--out", str(out), "--split", "calibration"], check=True, stdout=subprocess.DEVNULL)


@contextlib.contextmanager
def folder(data: Path | None) -> Iterator[Path]:
    """`data` when given (built there before), else a temporary folder they are built into (about 10 s)."""
    if data:
        yield data
        return
    from bench.scenario.suites import scenarios_dir
    with tempfile.TemporaryDirectory(prefix="calib-lexical-") as tmp:
        build(scenarios_dir() / "data", Path(tmp))
        yield Path(tmp)


def stage_main(argv: list[str] | None, module: str, doc: str, fit: Callable[[Path], Any]) -> int:
    """The command of a stage whose one option is `--data`: `python3 -m <module> [--data DIR]` runs `fit` on the
    calibration scenarios in DIR, or in a folder built for the run (`folder`)."""
    ap = argparse.ArgumentParser(prog=f"python3 -m {module}", description=doc.split("\n")[0])
    ap.add_argument("--data", type=Path, help="a folder holding the calibration scenarios (else built)")
    args = ap.parse_args(argv)
    with folder(args.data) as built:
        fit(built)
    return 0


def load(path: Path, oracle_root: Path | None = None):
    """The scenario file at `path`, judged from `oracle_root` (by default the `oracle_data/` beside it)."""
    from bench.scenario.loader import load_scenario
    return load_scenario(path, oracle_root or path.parent / "oracle_data")


def writes_and_queries(scenario, write: str, query: str,
                       write_moves_clock: bool = False) -> Iterator[tuple[str, Any, float]]:
    """("write", step, now) for each aliased `write` step and ("query", step, now) for each judged `query`
    step, in order; `now` is the scenario clock (its start time, moved by each `set_clock` and `advance_clock`). With
    `write_moves_clock`, a write's own `time` argument moves the clock forward (a commit memory is written at its
    commit's time, and the writes after it no earlier)."""
    now = float(scenario.header.start_time or 0.0)
    for step in scenario.steps:
        if step.name == "set_clock":
            now = float(step.raw_args["time"])
        elif step.name == "advance_clock":   # the synthetic notes' clock (the history scenarios set theirs)
            now += float(step.raw_args["seconds"])
        if step.name == query and step.expect is not None and step.expect.relevant is not None:
            yield "query", step, now
        elif step.name == write and step.alias:
            if write_moves_clock:
                now = max(now, float(step.raw_args.get("time") or now))
            yield "write", step, now
