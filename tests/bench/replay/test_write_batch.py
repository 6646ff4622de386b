"""Replay batches runs of writes (with the clock directives between them) and grades them step by step."""
from __future__ import annotations

import json
import sys
from dataclasses import asdict, replace
from pathlib import Path

import pytest

from bench.backends.reference.backend import ReferenceBackend
from bench.replay import write_batch
from bench.replay.replay import replay
from bench.scenario.loader import load_scenario

ROOT = Path(__file__).resolve().parents[3]
HEADER = {"scenario": "w", "format": 1, "start_time": 1_700_000_000}


class Sink:
    def __init__(self) -> None:
        self.events = []

    def emit(self, event) -> None:
        self.events.append(event)


def _replay(scenario, tmp_path: Path, name: str, batch: bool, monkeypatch, backend=None):
    monkeypatch.setenv(write_batch.ENV, "1" if batch else "0")
    sink = Sink()
    result = replay(scenario, backend or ReferenceBackend(), tmp_path / name, sink)
    files = {f: (tmp_path / name / "store" / f).read_bytes()
             for f in ("blob.dat", "vectors.f32", "vectors.keys", "vectors.tags", "vectors.sums")}
    steps = [replace(s, latency_ms=None) for s in result.steps]
    harness = [(e.op, e.memory_id, e.timestamp, e.extra["line"], e.extra["status"]) for e in sink.events
               if e.source == "harness"]
    return result, steps, files, harness


@pytest.mark.parametrize("name", ["knowledge-history", "smoke"])
def test_batched_replay_grades_and_stores_what_the_unbatched_one_does(tmp_path, monkeypatch, name):
    scenario = load_scenario(ROOT / "scenarios" / f"{name}.jsonl", ROOT / "oracle_data")
    calls = []
    real = write_batch.run_writes
    monkeypatch.setattr(sys.modules["bench.replay.replay"], "run_writes",
                        lambda *a, **k: calls.append(len(a[3])) or real(*a, **k))
    one = _replay(scenario, tmp_path, "one", False, monkeypatch)
    assert calls == []
    many = _replay(scenario, tmp_path, "many", True, monkeypatch)
    assert calls and max(calls) > 2   # runs were batched
    assert many[1] == one[1]                                   # every step: status, message, checks
    assert [asdict(q) for q in many[0].queries] == [asdict(q) for q in one[0].queries]
    assert many[0].census == one[0].census and many[0].lost_writes == one[0].lost_writes
    assert many[2] == one[2]                                   # the same store bytes
    assert many[3] == one[3]                                   # telemetry: same steps, ids, clock times


def _scenario(tmp_path: Path, *steps) -> object:
    path = tmp_path / "w.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in [HEADER, *steps]))
    return load_scenario(path)


def _write(text: str, alias: str | None = None, **args) -> dict:
    step = {"tool": "memory_write_structured", "args": {"text": text, **args}}
    return {**step, "as": alias} if alias else step


def test_a_run_stops_at_an_alias_bound_inside_it_and_at_a_clock_going_back(tmp_path, monkeypatch):
    scenario = _scenario(
        tmp_path, _write("a", "a"), {"directive": "advance_clock", "seconds": 5}, _write("b"),
        _write("c", metadata={"see": "$a"}),                      # names $a, bound inside the run
        _write("d"), {"directive": "set_clock", "time": 1_600_000_000}, _write("e"))
    from bench.replay.context import ReplayContext
    from reference.clock import LogicalClock
    ctx = ReplayContext(backend=ReferenceBackend(), clock=LogicalClock(HEADER["start_time"]),
                        scenario_dir=tmp_path, workdir=tmp_path)
    run = write_batch.write_run(ctx, scenario.steps, 0)
    assert len(run) == 3 and run.times == [1_700_000_000, 1_700_000_005, 1_700_000_005]
    ctx.bind("a", "mem:00000001")
    run = write_batch.write_run(ctx, scenario.steps, 3)
    assert len(run) == 2 and run.args[1].text == "d"           # the set_clock back in time runs alone
    result, steps, _, _ = _replay(scenario, tmp_path, "r", True, monkeypatch)
    statuses = [s.status for s in steps]
    assert statuses[5] == "failed" and "back" in steps[5].message          # the clock refused, on its own step
    assert statuses[:5] + statuses[6:] == ["ok"] * 7                       # the census step last


class LosesWrites(ReferenceBackend):
    """A subclass changing single writes: batching would bypass it, so it must not batch."""

    def write_memory(self, *args, **kwargs):
        self.n = getattr(self, "n", 0) + 1
        return f"mem:ffffff{self.n:02x}"


def test_a_backend_overriding_single_writes_is_not_batched(tmp_path, monkeypatch):
    assert write_batch._batches(ReferenceBackend) and not write_batch._batches(LosesWrites)
    scenario = _scenario(tmp_path, _write("a"), _write("b"), _write("c"))
    result, _, _, _ = _replay(scenario, tmp_path, "l", True, monkeypatch, backend=LosesWrites())
    assert result.census["lost"] == 3
