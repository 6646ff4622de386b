"""`codemem-bench backends`: list backends with their options and capabilities."""
from __future__ import annotations

import argparse

from bench.backends.capabilities import Capability
from bench.backends.registry import available_backends, backend_class

NAME = "backends"
HELP = "List the backends (built-in and plug-ins) with their options and declared capabilities."


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--matrix", action="store_true", help="print a capability matrix instead")


def run(args: argparse.Namespace) -> int:
    rows, unavailable = [], []
    for name in available_backends():
        try:
            cls = backend_class(name)
        except ImportError as exc:  # an optional backend whose extra is not installed: named after the rest
            unavailable.append(f"{name:16} unavailable: {exc}")
            continue
        variants = getattr(cls, "variants", None)   # one class, many servers (mcp:NAME): list each
        rows += [(spec, type(spec, (), {"capabilities": caps, "options": ()})) for spec, caps in variants().items()] \
            if variants else [(name, cls)]
    if args.matrix:
        caps = list(Capability)
        width = max(len(n) for n, _ in rows) + 2   # whole names: a cut header is unreadable
        print("capability".ljust(26) + "".join(n.ljust(width) for n, _ in rows))
        for c in caps:
            print(c.value.ljust(26) + "".join(("yes" if c in cls.capabilities else "-").ljust(width)
                                              for _, cls in rows))
    else:
        for name, cls in rows:
            opts = f" options: {', '.join(cls.options)}" if cls.options else ""
            print(f"{name:16}{opts}\n  {', '.join(sorted(c.value for c in cls.capabilities))}")
    # after the table or list, so that the matrix's first line is its header with or without every extra
    if unavailable:
        print("\n" + "\n".join(unavailable))
    return 0
