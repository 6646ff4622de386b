"""`codemem-bench scenarios`: list scenarios and suites; `scenarios build DATA_DIR --out DIR`: generate a history family."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bench.scenario.check import check_scenarios
from bench.scenario.history_generator import history_generator
from bench.scenario.loader import load_scenario
from bench.scenario.suites import oracle_dir, scenario_names, scenarios_dir, suites

NAME = "scenarios"
HELP = ("List the scenarios (steps, queries, description) and the suites that group them; "
        "`scenarios build DATA_DIR --out DIR` writes the history scenarios of a format-2 data folder.")


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", nargs="?", choices=["list", "build"], default="list",
                   help="list (default) or build")
    p.add_argument("data_dir", nargs="?", type=Path, help="build: a history folder in format 2 "
                   "(commits.jsonl, branch_commits.jsonl, branches.jsonl, blame.jsonl, meta.json), or a git "
                   "repository (extracted first into OUT/data/<name>, blame by `git blame -w`)")
    p.add_argument("--out", type=Path, help="build: folder for the scenario files")
    p.add_argument("--oracle-out", type=Path, help="build: folder for the judgements (default: OUT/oracle_data)")
    p.add_argument("--task", action="append", help="build: only this task (repeatable; default: all)")
    p.add_argument("--split", default="scored", choices=["scored", "calibration"],
                   help="build: queries from the scored part (default) or the calibration split")
    p.add_argument("--check", action="store_true",
                   help="validate every scenario file and suite instead of listing; report all problems, "
                        "exit 2 if any")


def _build(args: argparse.Namespace) -> int:
    if args.data_dir is None or args.out is None:
        raise ValueError("scenarios build needs DATA_DIR and --out DIR")
    if not args.data_dir.is_dir():
        raise ValueError(f"{args.data_dir}: not a folder")
    for note in history_generator().build(args.data_dir, args.out, args.oracle_out, args.task, args.split):
        print(note)
    return 0


def run(args: argparse.Namespace) -> int:
    if args.action == "build":
        return _build(args)
    if args.check:
        return check(args)
    for name in scenario_names():
        sc = load_scenario(scenarios_dir() / f"{name}.jsonl", oracle_dir())
        print(f"{name:32} {len(sc.steps):6} steps {len(sc.queries):5} queries  {sc.header.description}")
    for suite, names in suites().items():
        print(f"suite {suite}: {', '.join(names)}")
    return 0


def check(args: argparse.Namespace) -> int:
    problems = check_scenarios(scenarios_dir(), oracle_dir())
    for problem in problems:
        print(problem, file=sys.stderr)
    count = len(list(scenarios_dir().glob("*.jsonl")))
    print(f"{count} scenario files checked: " + (f"{len(problems)} problems" if problems else "all valid"))
    return 2 if problems else 0
