"""Entry point of `codemem-bench`: builds the parser from the command modules.

Exit codes shared by every command: 0 success, 1 regression (gate), 2 harness
or input error, 3 nothing ran.
"""
from __future__ import annotations

import argparse
import os
import sys
from importlib.metadata import PackageNotFoundError, version

from bench.cli import (agents_cmd, backends_cmd, compare_cmd, gate_cmd, ingest_git_cmd, models_cmd, peers_cmd,
                       run_cmd, scenarios_cmd, score_cmd, serve_cmd, verify_cmd)

COMMANDS = [run_cmd, scenarios_cmd, backends_cmd, score_cmd, compare_cmd, gate_cmd, serve_cmd, ingest_git_cmd,
            peers_cmd, models_cmd, agents_cmd, verify_cmd]

EXIT_OK, EXIT_REGRESSION, EXIT_INPUT, EXIT_NOTHING = 0, 1, 2, 3

DESCRIPTION = ("Benchmark and regression gate for the persistent memory of coding agents: replay scenarios "
               "against a memory backend, score retrieval quality, correctness and latency, compare backends, "
               "and gate changes against a baseline.")


def package_version() -> str:
    try:
        return version("codemem-bench")
    except PackageNotFoundError:   # run from a checkout that is not installed
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="codemem-bench", description=DESCRIPTION,
                                     epilog="Exit codes: 0 success, 1 regression, 2 harness or input error, "
                                            "3 nothing ran. `codemem-bench COMMAND --help` for one command.")
    parser.add_argument("--version", action="version", version=f"codemem-bench {package_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for mod in COMMANDS:
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=mod.HELP)
        p.add_argument("--version", action="version", version=f"codemem-bench {package_version()}")
        mod.configure(p)
        p.set_defaults(handler=mod.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code = int(args.handler(args) or 0)
        sys.stdout.flush()   # inside the try: a closed pipe surfaces here, not at interpreter exit
        return code
    except BrokenPipeError:
        # The reader (`| head`) went away: not an error. Point stdout at devnull so the interpreter's
        # final flush does not raise again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except (ValueError, KeyError, OSError) as exc:
        print(f"codemem-bench {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_INPUT


if __name__ == "__main__":
    sys.exit(main())
