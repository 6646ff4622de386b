"""bench.calibration.scenarios: the shared walk of a calibration scenario keeps each loader's clock."""
from __future__ import annotations

from types import SimpleNamespace

from bench.calibration.scenarios import writes_and_queries


def _step(name, alias=None, judged=False, **args):
    expect = SimpleNamespace(relevant={"x": 1}) if judged else None
    return SimpleNamespace(name=name, alias=alias, raw_args=args, expect=expect)


SCENARIO = SimpleNamespace(header=SimpleNamespace(start_time=100.0), steps=[
    _step("commit", "c1", message="a", time=500.0),
    _step("project_locate_files", judged=True, query="q1"),
    _step("project_locate_files", query="not judged"),
    _step("commit", message="no alias: not a write", time=900.0),
    _step("set_clock", time=200.0),
    _step("commit", "c2", message="b", time=150.0),     # earlier than the clock: the clock stays
    _step("commit", "c3", message="c"),                  # no time of its own: the clock's
    _step("project_locate_files", judged=True, query="q2"),
])


def _seen(**kw):
    return [(kind, step.alias or step.raw_args.get("query"), now)
            for kind, step, now in writes_and_queries(SCENARIO, "commit", "project_locate_files", **kw)]


def test_writes_and_judged_queries_in_order_at_the_scenario_clock():
    assert _seen() == [("write", "c1", 100.0), ("query", "q1", 100.0), ("write", "c2", 200.0),
                       ("write", "c3", 200.0), ("query", "q2", 200.0)]


def test_a_write_moves_the_clock_forward_only_when_asked():
    assert _seen(write_moves_clock=True) == [("write", "c1", 500.0), ("query", "q1", 500.0), ("write", "c2", 200.0),
                                             ("write", "c3", 200.0), ("query", "q2", 200.0)]


def test_advance_clock_moves_the_clock_by_its_seconds():
    # the synthetic notes (`knowledge`, `knowledge-calibration`) move their clock so; read as the start time,
    # every note was one write moment and the recency prior flat
    notes = SimpleNamespace(header=SimpleNamespace(start_time=100.0), steps=[
        _step("memory_write_structured", "n1", text="a"),
        _step("advance_clock", seconds=50),
        _step("memory_write_structured", "n2", text="b"),
        _step("set_clock", time=1000.0),
        _step("advance_clock", seconds=5),
        _step("memory_search_structured", judged=True, query="q"),
    ])
    seen = [(kind, step.alias or step.raw_args.get("query"), now)
            for kind, step, now in writes_and_queries(notes, "memory_write_structured", "memory_search_structured")]
    assert seen == [("write", "n1", 100.0), ("write", "n2", 150.0), ("query", "q", 1005.0)]
