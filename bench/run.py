"""Run a suite of scenarios against one backend and build its `Report`."""
from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from reference.telemetry import JsonlSink, read_events

from bench.backends.registry import create_backend
from bench.baselines import attach_baselines
from bench.replay import replay
from bench.report import Report
from bench.report.repetitions import Repetition, combine, determinism, latency_samples
from bench.report.summary import summarise
from bench.scenario.model import Scenario

ProgressFactory = Callable[[str, int], Callable[[int, int], None]]


def telemetry_path(out_dir: Path, scenario: str, repetition: int = 0) -> Path:
    """Where a repetition's telemetry goes: telemetry/<scenario>.jsonl, then telemetry/repeat-<i>/."""
    folder = out_dir / "telemetry" if repetition == 0 else out_dir / "telemetry" / f"repeat-{repetition + 1}"
    return folder / f"{scenario}.jsonl"


def run_repetition(backend_spec: str, scenarios: list[Scenario], out_dir: Path,
                   progress: ProgressFactory | None = None, keep_data: bool = False,
                   repetition: int = 0, label: str = "") -> Repetition:
    """Replay each scenario once on a fresh instance of the backend (only repetition 0 keeps data)."""
    summaries, samples = {}, {}
    capabilities: list[str] = []
    deterministic = False
    with tempfile.TemporaryDirectory(prefix="codemem-bench-") as tmp:
        work_root = (out_dir / "data") if keep_data and repetition == 0 else Path(tmp)
        for sc in scenarios:
            backend = create_backend(backend_spec)
            capabilities = [c.value for c in backend.capabilities]
            deterministic = bool(backend.deterministic)
            tel_path = telemetry_path(out_dir, sc.name, repetition)
            tel_path.unlink(missing_ok=True)
            sink = JsonlSink(tel_path)
            try:
                cb = progress(sc.name + label, len(sc.steps)) if progress else None
                result = replay(sc, backend, work_root / sc.name, sink, cb)
            finally:
                sink.close()
            events = [e for e in read_events(tel_path) if e["source"] == "harness"]
            summaries[sc.name] = summarise(result, sc.header, events)
            attach_baselines(summaries[sc.name], sc)
            if getattr(backend, "surface", None):   # an MCP server: what the agent pays (start-up, tools/list)
                summaries[sc.name]["surface"] = backend.surface
            samples[sc.name] = latency_samples(events)
    return Repetition(capabilities, summaries, samples, deterministic)


def display_path(path: Path) -> str:
    """`path` relative to the project root when it is inside it (`scenarios/smoke.jsonl`), else as given."""
    from bench.scenario.home import project_root
    try:
        return Path(path).resolve().relative_to(project_root().resolve()).as_posix()
    except ValueError:
        return str(path)


def record_files(summaries: dict[str, dict], scenarios: list[Scenario]) -> None:
    """Add each scenario's `file` to its summary, so a failure names its file, not only a line."""
    for sc in scenarios:
        summaries[sc.name]["file"] = display_path(sc.path)


def run_suite(backend_spec: str, scenarios: list[Scenario], out_dir: Path,
              progress: ProgressFactory | None = None, keep_data: bool = False, repeat: int = 1) -> Report:
    """Replay the suite `repeat` times; quality from the first, latency medians over all.

    Telemetry goes to out_dir/telemetry/ (repetition 1) and out_dir/telemetry/repeat-<i>/.
    Raises `RepetitionMismatch` (a ValueError) if repetitions disagree on quality.
    """
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, got {repeat}")
    reps = [run_repetition(backend_spec, scenarios, out_dir, progress, keep_data, i,
                           f" [{i + 1}/{repeat}]" if repeat > 1 else "") for i in range(repeat)]
    capabilities, summaries = combine(reps)
    record_files(summaries, scenarios)
    return Report(backend=backend_spec, capabilities=capabilities, scenarios=summaries,
                  determinism=determinism(reps))
