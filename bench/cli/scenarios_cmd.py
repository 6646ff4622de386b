"""`codemem-bench scenarios`: list scenarios and suites."""
from __future__ import annotations

import argparse

from bench.scenario.loader import load_scenario
from bench.scenario.suites import oracle_dir, scenario_names, scenarios_dir, suites

NAME = "scenarios"
HELP = "List the scenarios (steps, queries, description) and the suites that group them."


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--check", action="store_true", help="also validate every scenario file")


def run(args: argparse.Namespace) -> int:
    for name in scenario_names():
        sc = load_scenario(scenarios_dir() / f"{name}.jsonl", oracle_dir())
        print(f"{name:32} {len(sc.steps):6} steps {len(sc.queries):5} queries  {sc.header.description}")
    for suite, names in suites().items():
        print(f"suite {suite}: {', '.join(names)}")
    return 0
