"""Run a suite of scenarios against one backend and build its `Report`."""
from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from reference.telemetry import JsonlSink, read_events

from bench.backends.registry import create_backend
from bench.replay import replay
from bench.report import Report
from bench.report.summary import summarise
from bench.scenario.model import Scenario

ProgressFactory = Callable[[str, int], Callable[[int, int], None]]


def run_suite(backend_spec: str, scenarios: list[Scenario], out_dir: Path,
              progress: ProgressFactory | None = None, keep_data: bool = False) -> Report:
    """Replay each scenario on a fresh instance of the backend; telemetry goes to out_dir/telemetry/."""
    summaries = {}
    capabilities: list[str] = []
    with tempfile.TemporaryDirectory(prefix="codemem-bench-") as tmp:
        work_root = (out_dir / "data") if keep_data else Path(tmp)
        for sc in scenarios:
            backend = create_backend(backend_spec)
            capabilities = [c.value for c in backend.capabilities]
            tel_path = out_dir / "telemetry" / f"{sc.name}.jsonl"
            tel_path.unlink(missing_ok=True)
            sink = JsonlSink(tel_path)
            try:
                cb = progress(sc.name, len(sc.steps)) if progress else None
                result = replay(sc, backend, work_root / sc.name, sink, cb)
            finally:
                sink.close()
            events = [e for e in read_events(tel_path) if e["source"] == "harness"]
            summaries[sc.name] = summarise(result, sc.header, events)
    return Report(backend=backend_spec, capabilities=capabilities, scenarios=summaries)
