"""`run_suite_cluster`: `bench.run.run_suite`, with its cells (scenario x repetition) on Dask workers.

A cell is `bench.run.run_repetition` over one scenario: a fresh backend in a
fresh folder, replayed once, its telemetry written under the run's output
folder (which every worker must see: a local cluster, or a shared disk). The
cells' repetitions are then combined exactly as the serial run combines them,
so quality figures are identical to a serial run. Every cell measures
latency, so every cell asks for the worker resource `latency: 1` and each
worker offers one: no cell ever runs beside another on the same worker.
`cluster.json` beside the report records which worker ran (and timed) which cell.
"""
from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

from bench.report import Report
from bench.report.repetitions import Repetition, combine
from bench.scenario.model import Scenario

RESOURCE = {"latency": 1}
INSTALL = "pip install 'codemem-bench[cluster]'  (or: pip install 'dask[distributed]')"


def _distributed():
    try:
        import distributed
    except ImportError as exc:
        raise RuntimeError(f"--cluster / --workers need Dask distributed: {INSTALL}") from exc
    return distributed


def open_client(address: str | None = None, workers: int | None = None) -> Any:
    """A client of the cluster at `address`, or of a new local cluster of `workers` processes."""
    distributed = _distributed()
    if address:
        return distributed.Client(address)
    if not workers or workers < 1:
        raise ValueError(f"--workers must be at least 1, got {workers!r}")
    cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       resources=dict(RESOURCE), dashboard_address=None)
    return distributed.Client(cluster)


def run_cell(backend_spec: str, scenario: Scenario, out_dir: str, repetition: int) -> tuple[Repetition, str]:
    """Replay one scenario once (on a worker); the repetition and the worker that measured it."""
    from bench.run import run_repetition
    rep = run_repetition(backend_spec, [scenario], Path(out_dir), None, False, repetition)
    try:
        worker = _distributed().get_worker().address
    except ValueError:  # not on a worker (tests calling it directly)
        worker = f"local:{socket.gethostname()}"
    return rep, worker


def run_suite_cluster(client: Any, backend_spec: str, scenarios: list[Scenario], out_dir: Path,
                      repeat: int = 1, progress: Any = None) -> Report:
    """Same report as `run_suite(backend_spec, scenarios, out_dir, repeat=repeat)`, cells run on `client`."""
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, got {repeat}")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    cells = [(sc, r) for r in range(repeat) for sc in scenarios]
    futures = [client.submit(run_cell, backend_spec, sc, str(out_dir), r, resources=dict(RESOURCE), pure=False,
                             key=f"cell-{sc.name}-{r}-{i}") for i, (sc, r) in enumerate(cells)]
    results = client.gather(futures)
    reps, where = [], []
    for r in range(repeat):
        part = [(res, (sc, rr)) for res, (sc, rr) in zip(results, cells) if rr == r]
        caps = part[0][0][0].capabilities if part else []
        reps.append(Repetition(caps, {sc.name: res[0].summaries[sc.name] for res, (sc, _) in part},
                               {sc.name: res[0].samples[sc.name] for res, (sc, _) in part}))
        where += [{"scenario": sc.name, "repetition": r + 1, "worker": res[1]} for res, (sc, _) in part]
    (out_dir / "cluster.json").write_text(json.dumps({"backend": backend_spec, "cells": where}, indent=1) + "\n")
    capabilities, summaries = combine(reps)
    return Report(backend=backend_spec, capabilities=capabilities, scenarios=summaries)
