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
from bench.report.repetitions import Repetition, combine, determinism
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


def _run_cells(client: Any, specs: list[str], scenarios: list[Scenario], out_dirs: dict[str, Path],
               repeat: int) -> tuple[dict[str, Report], list[dict[str, Any]]]:
    """Every (backend, scenario, repetition) cell on the cluster; each backend's Report and who ran what."""
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, got {repeat}")
    cells = [(b, sc, r) for r in range(repeat) for b in specs for sc in scenarios]
    for d in out_dirs.values():
        d.mkdir(parents=True, exist_ok=True)
    # longest scenarios first (priority = steps), so that no long cell starts last while the other workers idle
    futures = [client.submit(run_cell, b, sc, str(out_dirs[b]), r, resources=dict(RESOURCE), pure=False,
                             priority=len(sc.steps), key=f"cell-{b}-{sc.name}-{r}-{i}")
               for i, (b, sc, r) in enumerate(cells)]
    results = client.gather(futures)
    reports, where = {}, []
    for b in specs:
        reps = []
        for r in range(repeat):
            part = [(res, sc) for res, (bb, sc, rr) in zip(results, cells) if bb == b and rr == r]
            caps = part[0][0][0].capabilities if part else []
            reps.append(Repetition(caps, {sc.name: res[0].summaries[sc.name] for res, sc in part},
                                   {sc.name: res[0].samples[sc.name] for res, sc in part},
                                   bool(part) and part[0][0][0].deterministic))
            where += [{"backend": b, "scenario": sc.name, "repetition": r + 1, "worker": res[1]} for res, sc in part]
        capabilities, summaries = combine(reps)
        reports[b] = Report(backend=b, capabilities=capabilities, scenarios=summaries, determinism=determinism(reps))
    return reports, where


def run_suite_cluster(client: Any, backend_spec: str, scenarios: list[Scenario], out_dir: Path,
                      repeat: int = 1) -> Report:
    """Same report as `run_suite(backend_spec, scenarios, out_dir, repeat=repeat)`, cells run on `client`."""
    out_dir = Path(out_dir)
    reports, where = _run_cells(client, [backend_spec], scenarios, {backend_spec: out_dir}, repeat)
    (out_dir / "cluster.json").write_text(json.dumps({"cells": where}, indent=1) + "\n")
    return reports[backend_spec]


def run_backends_cluster(client: Any, specs: list[str], scenarios: list[Scenario], out_dir: Path,
                         repeat: int = 1) -> dict[str, Report]:
    """`bench.compare.run_backends` on the cluster: each backend's Report, saved to out_dir/<slug>/."""
    import os
    import uuid

    from bench.compare.runner import check_specs, slug
    from bench.report.fingerprint import JOB_ENV
    from bench.run import record_files
    check_specs(specs)
    out_dir = Path(out_dir)
    reports, where = _run_cells(client, specs, scenarios, {b: out_dir / slug(b) for b in specs}, repeat)
    job = os.environ.get(JOB_ENV) or f"compare-{uuid.uuid4().hex[:12]}"   # as the serial runner: one same-job run
    for b, rep in reports.items():
        record_files(rep.scenarios, scenarios)
        rep.environment["job"] = job
        rep.save(out_dir / slug(b))
    (out_dir / "cluster.json").write_text(json.dumps({"cells": where}, indent=1) + "\n")
    return reports
