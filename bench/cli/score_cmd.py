"""`codemem-bench score REPORT`: recompute the codemem-bench score from a report alone."""
from __future__ import annotations

import argparse
import json
from pathlib import Path


NAME = "score"
HELP = "Recompute the codemem-bench score of a report.json (or a report folder) from its contents alone."


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("report", type=Path, help="report.json or the folder holding it")


def run(args: argparse.Namespace) -> int:
    from bench.report import Report, compute_score
    report = Report.load(args.report)
    print(json.dumps(compute_score({"scenarios": report.scenarios}), indent=2))
    return 0
