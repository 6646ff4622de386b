"""`codemem-bench serve --data DIR`: serve the reference store over MCP on stdin/stdout.

Every agent session starts its own server on the shared data folder; options
and the client configuration snippet are in reference/mcp_server/README.md.
"""
from __future__ import annotations

import argparse
import sys

from reference.mcp_server.cli import add_arguments, config_from_args

NAME = "serve"
HELP = "Serve the reference store over MCP (stdio) for a coding agent; several servers may share --data."


def configure(p: argparse.ArgumentParser) -> None:
    add_arguments(p)


def run(args: argparse.Namespace) -> int:
    """Serve; a data folder that cannot be opened is one line on stderr (naming the file) and exit code 2."""
    from reference.mcp_server.fast_start import StartupError, serve_stdio  # the mcp package loads behind it

    try:
        serve_stdio(config_from_args(args), log_level=args.log_level)
    except StartupError as exc:
        print(f"codemem-bench serve: error: {exc}", file=sys.stderr)
        return 2
    return 0


def main(argv: list[str] | None = None) -> int:
    """`python -m bench.cli.serve_cmd ...`: `codemem-bench serve` without importing the other commands."""
    parser = argparse.ArgumentParser(prog="codemem-bench serve", description=HELP)
    configure(parser)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except ValueError as exc:
        parser.error(str(exc))
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
