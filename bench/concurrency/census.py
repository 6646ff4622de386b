"""Run N agent processes against one shared store at once, then count what the store kept.

`run_agents(spec, workdir, agents, writes)` starts the agents (`agent.py`), releases them together once
all have opened the store, waits (bounded), then opens the store once more and checks every acknowledged
write: present with its text (`present`), missing (`lost`), or answered for another write's id
(`duplicated`: two acknowledgements of one id). A store that cannot be reopened is `readable: False`.
Write-back needs `memory.get`; without it every write is `unverifiable`, never counted as present.
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from reference.clock import LogicalClock
from reference.telemetry import ListSink

from bench.backends.capabilities import Capability
from bench.backends.registry import create_backend
from bench.concurrency.agent import START, register_plugin, text_of

READY_TIMEOUT_S = 300.0
RUN_TIMEOUT_S = 900.0


def _launch(spec: str, data: Path, work: Path, agents: int, writes: int, plugin: str | None) -> list:
    cmd = [sys.executable, "-m", "bench.concurrency.agent", "--backend", spec, "--data", str(data),
           "--writes", str(writes), "--dir", str(work)] + (["--plugin", plugin] if plugin else [])
    return [subprocess.Popen(cmd + ["--agent", str(i)], stdout=subprocess.DEVNULL,
                             stderr=(work / f"agent-{i}.log").open("w")) for i in range(agents)]


def _wait_ready(procs: list, work: Path, agents: int) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while len(list(work.glob("ready-*"))) < agents:
        dead = [i for i, p in enumerate(procs) if p.poll() is not None]
        if dead or time.monotonic() > deadline:
            for p in procs:
                p.kill()
            log = (work / f"agent-{dead[0]}.log").read_text()[-500:] if dead else "timed out"
            raise RuntimeError(f"agents did not all open the store: {log}")
        time.sleep(0.02)


def run_agents(spec: str, workdir: Path, agents: int, writes: int, plugin: str | None = None) -> dict[str, Any]:
    """One concurrent run and its census, as a plain dict (see the module docstring for the fields)."""
    work, data = Path(workdir), Path(workdir) / "store"
    work.mkdir(parents=True, exist_ok=True)
    register_plugin(spec, plugin)
    # Open once first so that every agent finds an initialised store, as agents sharing one would.
    first = create_backend(spec)
    first.open(data, LogicalClock(START), ListSink())
    first.close()
    procs = _launch(spec, data, work, agents, writes, plugin)
    _wait_ready(procs, work, agents)
    t0 = time.perf_counter()
    (work / "go").touch()
    for p in procs:
        p.wait(timeout=RUN_TIMEOUT_S)
    wall = time.perf_counter() - t0
    acked, errors = [], []
    for i in range(agents):
        out = work / f"agent-{i}.json"
        if not out.exists():
            errors.append(f"agent {i} exited {procs[i].returncode}: "
                          f"{(work / f'agent-{i}.log').read_text()[-300:]}")
            continue
        got = json.loads(out.read_text())
        acked += [(i, a["j"], a["id"]) for a in got["acked"]]
        errors += [f"agent {i} {e}" for e in got["errors"]]
    return {"backend": spec, "agents": agents, "writes": agents * writes, "acknowledged": len(acked),
            "refused": len(errors), "errors": errors[:10], "wall_s": round(wall, 3),
            **_census(spec, data, acked)}


def _census(spec: str, data: Path, acked: list[tuple[int, int, str]]) -> dict[str, Any]:
    ids = [a[2] for a in acked]
    duplicated = len(ids) - len(set(ids))
    try:
        backend = create_backend(spec)
        backend.open(data, LogicalClock(START + 10**6), ListSink())
    except Exception as exc:
        return {"readable": False, "present": 0, "lost": len(acked), "duplicated": duplicated,
                "unverifiable": 0, "read_error": f"{type(exc).__name__}: {str(exc)[:200]}"}
    try:
        if not backend.supports(Capability.MEMORY_GET):
            return {"readable": True, "present": 0, "lost": 0, "duplicated": duplicated, "unverifiable": len(acked)}
        present = lost = 0
        for agent, j, mid in acked:
            record = backend.get_memory(mid)
            if record is not None and record.get("text") == text_of(agent, j):
                present += 1
            else:
                lost += 1
        return {"readable": True, "present": present, "lost": lost, "duplicated": duplicated, "unverifiable": 0}
    finally:
        backend.close()
