"""`ServerConfig`: the options of one server process (kept free of heavy imports for the CLI)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reference.rankers.registry import DEFAULT_RANKER


@dataclass(frozen=True)
class ServerConfig:
    """Options of `codemem-bench serve` (see the README of this package)."""

    data_dir: Path
    clock: str = "system"            # "system" or "logical:<unix seconds>"
    root: Path | None = None         # base of relative paths in the jit_* tools (default: working directory)
    ranker: str = DEFAULT_RANKER     # reference.rankers name answering memory searches
    redact: bool = True              # run the pat:secrets Redactor on every write
    telemetry: Path | None = None    # append store telemetry (JSON lines) here
    follow_git: bool = True          # project memory's current branch follows <root>/.git/HEAD
    tools: str = "all"               # tool profile(s), profiles.py; the command line's default is "core"
