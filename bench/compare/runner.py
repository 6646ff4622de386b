"""Run several backends over the same scenarios, repetitions interleaved.

Repetition i of every backend runs before repetition i + 1 of any, so slow drift of the
machine (thermal, other load) spreads over all backends instead of favouring the first.
"""
from __future__ import annotations

import os
import uuid
from pathlib import Path

from bench.backends.registry import create_backend
from bench.report import Report
from bench.report.fingerprint import JOB_ENV
from bench.report.repetitions import combine, determinism
from bench.run import ProgressFactory, record_files, run_repetition
from bench.scenario.model import Scenario


def slug(spec: str) -> str:
    """A backend spec as a folder or file name (`reference:memory-lane` -> `reference-memory-lane`)."""
    return spec.replace(":", "-")


def check_specs(specs: list[str]) -> None:
    """Fail early, before anything runs, on a repeated or unknown backend spec."""
    if len(set(specs)) != len(specs):
        raise ValueError(f"a backend is listed twice in {specs}")
    if len({slug(s) for s in specs}) != len(specs):
        raise ValueError(f"two backends in {specs} would share an output folder")
    for s in specs:
        create_backend(s)  # raises KeyError / ValueError naming the spec


def run_backends(specs: list[str], scenarios: list[Scenario], out_dir: Path, repeat: int = 1,
                 progress: ProgressFactory | None = None) -> dict[str, Report]:
    """Each backend's Report; each also saved to out_dir/<slug>/ with its telemetry."""
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, got {repeat}")
    check_specs(specs)
    reps: dict[str, list] = {s: [] for s in specs}
    for i in range(repeat):
        for s in specs:
            label = f" [{s}" + (f" {i + 1}/{repeat}]" if repeat > 1 else "]")
            reps[s].append(run_repetition(s, scenarios, out_dir / slug(s), progress, False, i, label))
    reports = {}
    job = os.environ.get(JOB_ENV) or f"compare-{uuid.uuid4().hex[:12]}"   # one same-job run: latency comparable
    for s in specs:
        capabilities, summaries = combine(reps[s])
        record_files(summaries, scenarios)
        reports[s] = Report(backend=s, capabilities=capabilities, scenarios=summaries,
                            determinism=determinism(reps[s]))
        reports[s].environment["job"] = job
        reports[s].save(out_dir / slug(s))
    return reports
