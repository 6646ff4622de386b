"""One agent process: open the shared store, wait for the start signal, write, report what was acknowledged.

Run by `census.run_agents` as `python -m bench.concurrency.agent --backend SPEC --data DIR --agent I
--writes M --dir WORK`. Every agent opens the backend itself (an MCP backend starts its own server process),
touches `WORK/ready-I`, waits for `WORK/go`, writes M memories with texts unique to (I, j), closes the
backend and writes `WORK/agent-I.json`: the ids the backend acknowledged, and the errors of writes it refused.
`--plugin module:Class` registers a backend class first (tests plant backends this way).
"""
from __future__ import annotations

import argparse
import importlib
import json
import time
from pathlib import Path

from reference.clock import LogicalClock
from reference.telemetry import ListSink

START = 1_700_000_000
GO_TIMEOUT_S = 300.0


def text_of(agent: int, j: int) -> str:
    """The memory text of agent `agent`'s write `j`: unique words so any search can tell them apart."""
    return f"agent {agent} note {j}: concurrency census marker a{agent}n{j} about shared store writes"


def register_plugin(spec: str, plugin: str | None) -> None:
    """Register `module:Class` under the spec's backend name (how tests plant a backend in every process)."""
    if plugin:
        from bench.backends.registry import register_backend
        module, _, cls = plugin.partition(":")
        register_backend(spec.partition(":")[0], getattr(importlib.import_module(module), cls))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.concurrency.agent")
    p.add_argument("--backend", required=True)
    p.add_argument("--data", required=True, type=Path)
    p.add_argument("--agent", required=True, type=int)
    p.add_argument("--writes", required=True, type=int)
    p.add_argument("--dir", required=True, type=Path)
    p.add_argument("--plugin")
    args = p.parse_args(argv)
    from bench.backends.registry import create_backend
    register_plugin(args.backend, args.plugin)
    backend = create_backend(args.backend)
    clock = LogicalClock(START + args.agent)
    acked, errors = [], []
    backend.open(args.data, clock, ListSink())
    try:
        (args.dir / f"ready-{args.agent}").touch()
        deadline = time.monotonic() + GO_TIMEOUT_S
        while not (args.dir / "go").exists():
            if time.monotonic() > deadline:
                raise TimeoutError(f"agent {args.agent}: no start signal in {GO_TIMEOUT_S:.0f} s")
            time.sleep(0.01)
        for j in range(args.writes):
            try:
                acked.append({"id": backend.write_memory(text_of(args.agent, j)), "j": j})
            except Exception as exc:   # a refused write is reported, not acknowledged
                errors.append(f"write {j}: {type(exc).__name__}: {str(exc)[:200]}")
            clock.advance(1)
    finally:
        backend.close()
    (args.dir / f"agent-{args.agent}.json").write_text(json.dumps({"acked": acked, "errors": errors}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
