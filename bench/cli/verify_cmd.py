"""`codemem-bench verify --data DIR`: check every file of a reference store for damage (issue 11)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from reference.verify import verify_store

NAME = "verify"
HELP = ("Check a reference store's files (tracker.db, blob.dat, vectors.*, graph/data.mdb, snapshots) "
        "read-only; exit 1 naming each damaged file and record, 0 with a one-line summary when clean.")
EXIT_DAMAGED = 1


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", required=True, type=Path, help="the store's data folder")
    p.add_argument("--json", action="store_true", help="print the report as JSON instead of text")


def run(args: argparse.Namespace) -> int:
    report = verify_store(args.data)
    if args.json:
        print(json.dumps({"ok": report.ok, "data_dir": report.data_dir, "checked": report.checked,
                          "problems": [vars(p) for p in report.problems]}, indent=2))
        return 0 if report.ok else EXIT_DAMAGED
    for problem in report.problems:
        print(problem, file=sys.stderr)
    print(report.summary())
    return 0 if report.ok else EXIT_DAMAGED
