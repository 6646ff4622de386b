"""Tool profiles: named sets of tool modules, so an agent loads only the tools it needs (`--tools`).

    modules_for("core")            # ["memory"]
    modules_for("core,graph")      # ["memory", "graph", "policy", "snapshot"]

A profile names tool modules (tools/__init__.py); several profiles join with
commas. The private `_harness_*` tools are not in any profile: they come with a
logical clock (`--clock logical:...`), whatever the profile. Sizes of each
profile's `tools/list` answer: README.md "Tool profiles".
"""
from __future__ import annotations

from reference.mcp_server.config import ServerConfig
from reference.mcp_server.server_clock import parse_clock
from reference.mcp_server.tools import TOOL_MODULES

DEFAULT_PROFILE = "core"

PROFILES: dict[str, tuple[str, ...]] = {
    "core": ("memory",),                           # seed 000 §5.1: write/search/get/list structured memories
    "memory": ("memory", "threads", "batch"),      # + thread notes (memory_write, memory_search), batch writes
    "code": ("code", "patterns"),                  # jit_*, code/symbol search, Hyperscan pattern tools
    "graph": ("graph", "policy", "snapshot"),      # seed 003 entity graph, policy KV, saved snapshots
    "knowledge": ("knowledge",),                   # seed 001 oracle_* tools
    "lane": ("lane",),                             # seed 004 memory-lane_* tools
    "project": ("project",),                       # seed 002 project memory
    "all": tuple(m for m in TOOL_MODULES if m != "harness"),
}


def modules_for(spec: str) -> list[str]:
    """The tool modules of profile `spec` ("core", "core,graph", ...) in registration order.

    A `ValueError` naming the unknown profile (and listing the known ones) for a bad spec."""
    wanted: set[str] = set()
    names = [part.strip() for part in str(spec).split(",")]
    for name in names:
        if name not in PROFILES:
            shown = name if len(name) <= 40 else f"{name[:40]}..."
            raise ValueError(f"--tools: unknown profile {shown!r}; profiles: {', '.join(PROFILES)} "
                             f"(comma-separated to combine)")
        wanted.update(PROFILES[name])
    return [m for m in TOOL_MODULES if m in wanted]


def server_modules(config: ServerConfig) -> list[str]:
    """Tool modules a server with `config` registers: its profile, plus `harness` on a logical clock."""
    return [*modules_for(config.tools), *(["harness"] if parse_clock(config.clock).logical else [])]
