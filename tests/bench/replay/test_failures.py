"""A step that raises is graded: refusals and bugs fail their checks, never hide them."""
from __future__ import annotations

import json

import pytest

from bench.backends.reference.backend import ReferenceBackend
from bench.backends.registry import register_backend, unregister_backend
from bench.run import run_suite
from bench.scenario.loader import load_scenario

HEADER = {"scenario": "t", "format": 1, "start_time": 1_700_000_000,
          "targets": [{"metric": "check_rate", "op": ">=", "value": 1.0}]}
WRITE = {"tool": "memory_write_structured", "args": {"text": "alpha beta"}, "as": "m"}
GET = {"tool": "memory_get", "args": {"memory_id": "$m"}, "expect": {"found": True, "fields": {"text": "alpha beta"}}}
SEARCH = {"tool": "memory_search_structured", "args": {"query": "alpha"}, "expect": {"relevant": ["m"], "count": 1}}


class Raises(ReferenceBackend):
    """get_memory and search raise `EXC` (so the census cannot read the write back either)."""

    name = "test-raises"
    options = ()
    EXC: type[Exception] = ValueError

    def get_memory(self, memory_id):
        raise self.EXC("planted")

    def search_memories(self, *args, **kwargs):
        raise self.EXC("planted")


@pytest.fixture(autouse=True)
def registered():
    register_backend(Raises.name, Raises)
    yield
    unregister_backend(Raises.name)
    Raises.EXC = ValueError


def run(tmp_path, *steps, backend="reference", header=HEADER):
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in [header, *steps]))
    report = run_suite(backend, [load_scenario(path)], tmp_path / "out")
    return report, report.scenarios["t"]


def test_refusal_when_none_was_expected_fails_every_check_and_zeroes_the_query(tmp_path):
    _, honest = run(tmp_path / "h", WRITE, GET, SEARCH)
    assert honest["checks"]["rate"] == 1.0 and honest["quality"]["ndcg@10"] == 1.0
    report, s = run(tmp_path, WRITE, GET, SEARCH, backend=Raises.name)
    # found + fields + count fail, and the census cannot read the write back
    assert s["checks"] == {"passed": 0, "total": 4, "rate": 0.0}
    assert s["quality"]["ndcg@10"] == 0.0 and s["targets"][0]["met"] is False
    assert [(p["line"], p["status"], p["message"]) for p in s["problems"][:2]] == [
        (3, "failed", "ValueError: planted"), (4, "failed", "ValueError: planted")]
    assert s["steps"] == {"total": 3, "ok": 1, "failed": 2, "error": 0, "unsupported": 0}


@pytest.mark.parametrize("exc", [KeyError, TypeError, AttributeError])
def test_an_undeclared_exception_is_a_bug_reported_as_error(tmp_path, exc):
    Raises.EXC = exc
    _, s = run(tmp_path, WRITE, GET, backend=Raises.name)
    (problem,) = [p for p in s["problems"] if p["step"] == "memory_get"]
    assert problem["status"] == "error" and problem["message"].startswith(f"backend or harness bug: {exc.__name__}")
    assert s["steps"]["error"] == 1 and s["checks"]["passed"] == 0


def test_expected_error_needs_a_declared_refusal(tmp_path):
    bad_get = {"tool": "memory_get", "args": {"memory_id": "$m"}, "expect": {"error": True}}
    _, s = run(tmp_path / "v", WRITE, bad_get, backend=Raises.name)
    assert s["checks"]["passed"] == 1  # the refusal itself passed; the census could not read the write
    assert [(p["line"], p["step"], p["message"]) for p in s["problems"]] == [
        (2, "memory_write_structured", "census: acknowledged write cannot be read back")]
    Raises.EXC = KeyError
    _, s = run(tmp_path / "k", WRITE, bad_get, backend=Raises.name)
    (problem,) = [p for p in s["problems"] if p["step"] == "memory_get"]
    assert problem["status"] == "error" and s["checks"]["passed"] == 0


def test_a_raising_step_without_checks_still_fails_one(tmp_path):
    report, s = run(tmp_path, WRITE, {"tool": "memory_search_structured", "args": {"query": "alpha"}},
                    backend=Raises.name)
    assert s["checks"]["total"] == 2 and s["checks"]["passed"] == 0  # "raised" + the census
    assert report.score["value"] < 100


def test_an_alias_unbound_at_run_time_fails_its_checks(tmp_path):
    # the loader only sees aliases bound by earlier steps; one whose write failed is unbound at run time
    failing_write = {"tool": "memory_write_structured", "args": {"text": "x"}, "as": "m"}

    class FailsWrites(ReferenceBackend):
        name = "test-fails-writes"
        options = ()

        def write_memory(self, *args, **kwargs):
            raise ValueError("full")

    register_backend(FailsWrites.name, FailsWrites)
    try:
        report, s = run(tmp_path, failing_write, GET, backend=FailsWrites.name)
    finally:
        unregister_backend(FailsWrites.name)
    (problem,) = [p for p in s["problems"] if p["step"] == "memory_get"]
    assert problem["status"] == "error" and "AliasError" in problem["message"] and "'m'" in problem["message"]
    assert s["checks"]["passed"] == 0 and s["checks"]["total"] == 3  # the write's "raised" + found + fields
    assert report.score["value"] < 100


def test_directives_count_neither_in_coverage_nor_in_latency(tmp_path):
    clock = {"directive": "advance_clock", "seconds": 1}
    _, s = run(tmp_path, WRITE, clock, clock, clock, GET)
    assert s["steps"]["total"] == 2 and s["directives"] == {"total": 3, "ok": 3, "failed": 0, "error": 0, "unsupported": 0}
    assert "advance_clock" not in s["latency_ms"] and s["latency_ms"]["all"]["n"] == 2


def test_an_upper_bound_target_is_not_met_when_its_operations_never_ran(tmp_path):
    target = {"metric": "check_rate", "op": "<=", "value": 1.0, "needs": ["memory_search_structured"]}
    header = {**HEADER, "targets": [target]}
    _, idle = run(tmp_path / "idle", WRITE, GET, header=header)
    assert idle["targets"][0] == {"metric": "check_rate", "op": "<=", "target": 1.0, "source": "", "value": 1.0,
                                  "met": False, "needs": ["memory_search_structured"], "needs_ran": 0}
    _, busy = run(tmp_path / "busy", WRITE, GET, SEARCH, header=header)
    assert busy["targets"][0]["met"] is True and busy["targets"][0]["needs_ran"] == 1
