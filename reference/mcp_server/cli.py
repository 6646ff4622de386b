"""Command-line options of the server, shared by `codemem-bench serve` and `python -m reference.mcp_server`."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from reference.mcp_server.config import ServerConfig
from reference.rankers.registry import DEFAULT_RANKER
from reference.mcp_server.profiles import DEFAULT_PROFILE, PROFILES, modules_for
from reference.mcp_server.server_clock import parse_clock

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
MAX_ERROR = 500


def error_line(exc: BaseException) -> str:
    """A start-up error as one short line (an integrity report spans several)."""
    text = "; ".join(line.strip() for line in str(exc).splitlines() if line.strip())
    return text if len(text) <= MAX_ERROR else text[:MAX_ERROR] + "..."


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", type=Path, required=True, metavar="DIR",
                   help="the store's data folder (created if missing); several servers may share it")
    p.add_argument("--clock", default="system", metavar="SPEC",
                   help="'system' (default) or 'logical:START' (Unix seconds) for reproducible sessions; "
                        "a logical clock also enables the private _harness_* tools")
    p.add_argument("--tools", default=DEFAULT_PROFILE, metavar="PROFILE",
                   help=f"tool profile(s), comma-separated: {', '.join(PROFILES)} (default: {DEFAULT_PROFILE}; "
                        "sizes in reference/mcp_server/README.md)")
    p.add_argument("--root", type=Path, default=None, metavar="DIR",
                   help="base of relative paths in the jit_* tools (default: the working directory)")
    p.add_argument("--ranker", default=DEFAULT_RANKER, metavar="NAME",
                   help=f"ranker answering memory searches (reference.rankers; default: {DEFAULT_RANKER})")
    p.add_argument("--no-follow-git", dest="follow_git", action="store_false",
                   help="keep project memory's current branch where project_switch_branch put it (default: "
                        "follow the branch checked out in --root's git repository at each call)")
    p.add_argument("--no-redact", dest="redact", action="store_false",
                   help="do not redact secrets (pat:secrets) on the write path")
    p.add_argument("--telemetry", type=Path, default=None, metavar="FILE",
                   help="append store telemetry events (JSON lines) to FILE")
    p.add_argument("--log-level", default="WARNING", choices=LOG_LEVELS, help="server log level (stderr)")


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    """A `ServerConfig` from parsed options; a bad `--clock` or `--tools` raises a `ValueError` naming it."""
    parse_clock(args.clock)
    modules_for(args.tools)
    return ServerConfig(data_dir=args.data, clock=args.clock, root=args.root, ranker=args.ranker,
                        redact=args.redact, telemetry=args.telemetry, tools=args.tools,
                        follow_git=args.follow_git)


def main(argv: list[str] | None = None) -> int:
    from reference.errors import StoreError
    from reference.mcp_server.fast_start import serve_stdio

    parser = argparse.ArgumentParser(prog="python -m reference.mcp_server",
                                     description="Serve the reference memory store over MCP (stdio).")
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        config = config_from_args(args)
    except ValueError as exc:
        parser.error(str(exc))
    try:
        serve_stdio(config, log_level=args.log_level)
    except StoreError as exc:  # StartupError, or damage found while building the tools (CorruptData)
        print(f"{parser.prog}: error: {error_line(exc)}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
