"""`run --repeat N`: quality from the first repetition (all must agree), latency medians, bounded samples."""
import json

import pytest

from bench.backends.reference.backend import ReferenceBackend
from bench.backends.registry import register_backend, unregister_backend
from bench.cli.main import main
from bench.report.repetitions import Repetition, RepetitionMismatch, bounded, combine, latency_samples


def summary(p50, per_query=None):
    return {"per_query": per_query or [{"id": "q1", "ndcg@10": 0.5}], "checks": {}, "metrics": {}, "steps": {},
            "quality": {}, "quality_by_category": {},
            "latency_ms": {"all": {"p50": p50, "p95": 10 * p50, "p99": 20 * p50, "mean": p50, "n": 7}}}


def test_combine_takes_medians_and_keeps_each_repetition():
    reps = [Repetition(["x"], {"s": summary(p)}, {"s": {"all": [p, p]}}) for p in (3.0, 1.0, 2.0, 10.0)]
    caps, out = combine(reps)
    s = out["s"]
    assert caps == ["x"]
    # median of 3, 1, 2, 10 is (2 + 3) / 2
    assert s["latency_ms"]["all"] == {"p50": 2.5, "p95": 25.0, "p99": 50.0, "mean": 2.5, "n": 7}
    assert [r["all"]["p50"] for r in s["latency_repetitions"]] == [3.0, 1.0, 2.0, 10.0]
    assert s["latency_samples_ms"]["all"] == [3.0, 3.0, 1.0, 1.0, 2.0, 2.0, 10.0, 10.0]


def test_combine_refuses_repetitions_that_disagree_on_quality():
    a = Repetition([], {"s": summary(1.0)})
    b = Repetition([], {"s": summary(1.0, [{"id": "q1", "ndcg@10": 0.4}])})
    with pytest.raises(RepetitionMismatch, match="scenario s: repetition 2 differs from repetition 1 in 'per_query'"):
        combine([a, b])


def test_bounded_keeps_ends_and_even_spacing():
    assert bounded([float(i) for i in range(11)], cap=3) == [0.0, 5.0, 10.0]
    assert bounded([1.23456789], cap=3) == [1.2346]


def event(step, op, ms, status="ok"):
    return {"op": op, "latency_ms": ms, "extra": {"step": step, "status": status}}


def test_latency_samples_leave_directives_and_unsupported_steps_out_of_queries():
    events = [event("memory_search_structured", "query", 2.0), event("advance_clock", "query", 0.01),
              event("memory_write_structured", "write", 1.0),
              event("memory_search_structured", "query", None, "unsupported")]
    s = latency_samples(events)
    # directives are not operations: timed nowhere (issue 12)
    assert s["queries"] == [2.0] and s["all"] == [2.0, 1.0]
    assert "advance_clock" not in s and s["memory_search_structured"] == [2.0]


class Flaky(ReferenceBackend):
    """Drops its best hit on every other store it opens: quality differs between repetitions."""

    name = "flaky"
    options = ()
    opened = 0

    def open(self, *args):
        type(self).opened += 1
        self.drop = type(self).opened % 2 == 0
        super().open(*args)

    def search_memories(self, *args, **kwargs):
        hits = super().search_memories(*args, **kwargs)
        return hits[1:] if self.drop else hits


def test_run_repeat_fails_on_nondeterministic_quality(tmp_path, capsys):
    register_backend("flaky", Flaky)
    try:
        code = main(["run", "smoke", "--backend", "flaky", "--repeat", "2", "--out", str(tmp_path), "--quiet"])
    finally:
        unregister_backend("flaky")
    assert code == 2
    assert "scenario smoke: repetition 2 differs from repetition 1" in capsys.readouterr().err


def test_run_repeat_writes_per_repetition_figures_and_telemetry(tmp_path):
    assert main(["run", "smoke", "--repeat", "2", "--out", str(tmp_path), "--quiet"]) == 0
    s = json.loads((tmp_path / "report.json").read_text())["scenarios"]["smoke"]
    assert len(s["latency_repetitions"]) == 2
    assert len(s["latency_samples_ms"]["all"]) == 2 * s["latency_ms"]["all"]["n"]
    assert (tmp_path / "telemetry" / "smoke.jsonl").exists()
    assert (tmp_path / "telemetry" / "repeat-2" / "smoke.jsonl").exists()
    assert main(["run", "smoke", "--repeat", "0", "--out", str(tmp_path)]) == 2
