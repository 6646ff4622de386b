"""Entry point of `codemem-bench`: builds the parser from the command modules.

Exit codes shared by every command: 0 success, 1 regression (gate), 2 harness
or input error, 3 nothing ran.
"""
from __future__ import annotations

import argparse
import sys

from bench.cli import (backends_cmd, compare_cmd, gate_cmd, ingest_git_cmd, run_cmd, scenarios_cmd, score_cmd,
                       serve_cmd, verify_cmd)

COMMANDS = [run_cmd, scenarios_cmd, backends_cmd, score_cmd, compare_cmd, gate_cmd, serve_cmd, ingest_git_cmd,
            verify_cmd]

EXIT_OK, EXIT_REGRESSION, EXIT_INPUT, EXIT_NOTHING = 0, 1, 2, 3


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="codemem-bench", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for mod in COMMANDS:
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=mod.HELP)
        mod.configure(p)
        p.set_defaults(handler=mod.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except (ValueError, KeyError, OSError) as exc:
        print(f"codemem-bench {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_INPUT


if __name__ == "__main__":
    sys.exit(main())
