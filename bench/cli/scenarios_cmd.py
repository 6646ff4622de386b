"""`codemem-bench scenarios`: list scenarios and suites."""
from __future__ import annotations

import argparse
import sys

from bench.scenario.loader import load_scenario
from bench.scenario.suites import oracle_dir, scenario_names, scenarios_dir, suites

NAME = "scenarios"
HELP = "List the scenarios (steps, queries, description) and the suites that group them."


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--check", action="store_true",
                   help="validate every scenario file and suite instead of listing; report all problems, "
                        "exit 2 if any")


def run(args: argparse.Namespace) -> int:
    if args.check:
        return check(args)
    for name in scenario_names():
        sc = load_scenario(scenarios_dir() / f"{name}.jsonl", oracle_dir())
        print(f"{name:32} {len(sc.steps):6} steps {len(sc.queries):5} queries  {sc.header.description}")
    for suite, names in suites().items():
        print(f"suite {suite}: {', '.join(names)}")
    return 0


def check(args: argparse.Namespace) -> int:
    from bench.scenario.check import check_scenarios
    problems = check_scenarios(scenarios_dir(), oracle_dir())
    for problem in problems:
        print(problem, file=sys.stderr)
    count = len(list(scenarios_dir().glob("*.jsonl")))
    print(f"{count} scenario files checked: " + (f"{len(problems)} problems" if problems else "all valid"))
    return 2 if problems else 0
