"""`codemem-bench peers`: list the MCP memory servers that adapters describe, install them, measure them."""
from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

NAME = "peers"
HELP = "List, install or measure the MCP memory servers described by adapter files (mcp:NAME backends)."


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=["list", "install", "measure"], nargs="?", default="list",
                   help="list (default): adapters and whether each is installed; install NAME...: install "
                        "with npm or pip into the peer folder; measure NAME...: start-up time and tools/list size")
    p.add_argument("names", nargs="*", help="adapter names (default for measure: every installed one)")
    p.add_argument("--json", action="store_true", help="measure: print JSON instead of a table")


def run(args: argparse.Namespace) -> int:
    from bench.backends.mcp.adapter import adapter_names, load_adapter
    from bench.backends.mcp.peers import install, is_installed, peer_dir

    names = args.names or adapter_names()
    adapters = [load_adapter(n) for n in names]
    if args.action == "list":
        for a in adapters:
            state = "bundled" if a.install is None else ("installed" if is_installed(a) else "not installed")
            print(f"mcp:{a.name:16} {state:14} {a.description}")
            if a.install is not None and not is_installed(a):
                print(f"{'':21}install: codemem-bench peers install {a.name}   (into {peer_dir(a)})")
        return 0
    if args.action == "install":
        if not args.names:
            raise ValueError("peers install needs adapter names, e.g. `codemem-bench peers install server-memory`")
        for a in adapters:
            install(a)
            print(f"mcp:{a.name}: installed in {peer_dir(a)}")
        return 0
    from bench.backends.mcp.surface import measure
    rows = [measure(a.name, Path(tempfile.mkdtemp(prefix="codemem-peer-"))) for a in adapters
            if args.names or is_installed(a)]
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"{'backend':22}{'start-up ms':>12}{'tools':>7}{'tools/list chars':>18}{'≈ tokens':>10}")
        for r in rows:
            print(f"{r['backend']:22}{r['startup_ms']:12.0f}{r['tools']:7d}{r['tools_list_chars']:18,d}"
                  f"{r['tools_list_tokens']:10,d}")
    return 0
