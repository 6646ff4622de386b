"""Pattern sets cannot make a call, or a later start, run unbounded (issue 25).

Before: `pattern_load` of `(.*a){25}` was accepted and one `pattern_scan_memories` over a
16,000-character memory then took 9.8 s; 256 patterns `a.{1000+i}b` did not compile within
20 s; a restart after such loads took 14.7 s to answer `initialize`. Timing rule: no speed
is asserted; the MCP cases wait at most `wire.ANSWER_WAIT` (60 s) for an answer that must be
an error naming the set (each error comes from a static check, before Hyperscan or `re` run).
"""
from __future__ import annotations

import json

import pytest

from reference.clock import LogicalClock
from reference.patterns import PatternError, PatternSetManager
from reference.patterns.compiled_set import ScanBudget
from tests.reference.mcp_server.wire import RawServer

PATHOLOGICAL = {
    "nested": ["(.*a){25}"],
    "chain": [".*a.*a.*a.*a.*a"],
    "nested plus": ["(x+x+)+y"],
    "compile": [f"a.{{{1000 + i}}}b" for i in range(256)],
    "one huge repeat": ["a.{5000}b"],
}


@pytest.mark.parametrize("name", sorted(PATHOLOGICAL))
def test_costly_sets_are_refused_naming_the_pattern(tmp_path, name):
    manager = PatternSetManager(tmp_path, clock=LogicalClock())
    with pytest.raises(PatternError) as err:
        manager.load({"id": "pat:bad", "patterns": PATHOLOGICAL[name]})
    assert "pat:bad" in str(err.value) and "nothing of the set was loaded" in str(err.value)


def test_safe_repeats_are_still_accepted(tmp_path):
    manager = PatternSetManager(tmp_path, clock=LogicalClock())
    manager.load({"id": "pat:ok", "patterns": [r"(?:[a-z0-9]+[_.\-])*token", r"(?:\w+\.)+\w+", ".*a.*b",
                                               "a.{1000}b", r"(\d+,)+x"]})
    assert [m.start for m in manager.scan("pat:ok", b"my_api.token x")][:1] == [0]


def test_a_scan_stops_at_its_budget(tmp_path):
    manager = PatternSetManager(tmp_path, clock=LogicalClock())
    manager.load({"id": "pat:a", "patterns": ["a"]})
    with pytest.raises(PatternError, match="match events"):
        manager.scan("pat:a", b"a" * 1000, budget=ScanBudget("pat:a", events=10))
    with pytest.raises(PatternError, match="over 0 s"):
        manager.scan_many("pat:a", [("m1", b"a" * 10), ("m2", b"a")], budget=ScanBudget("pat:a", seconds=0))
    assert len(manager.scan("pat:a", b"a" * 1000, budget=ScanBudget("pat:a"))) == 1000


def _call(srv: RawServer, tool: str, args: dict) -> dict:
    got = srv.request("tools/call", {"name": tool, "arguments": args})
    assert got is not None, f"{tool}: no answer"
    return got["result"]


def test_pathological_loads_over_mcp_answer_with_an_error_and_a_restart_is_unaffected(tmp_path):
    data = tmp_path / "data"
    srv = RawServer(data, "--tools", "all")
    try:
        assert srv.initialize()["result"]
        _call(srv, "memory_write_structured", {"text": "a" * 16_000})
        for name, patterns in PATHOLOGICAL.items():
            got = _call(srv, "pattern_load", {"pattern_set_id": "pat:bad", "patterns": patterns})
            assert got["isError"] and "pat:bad" in got["content"][0]["text"], (name, got)
        got = _call(srv, "pattern_scan_memories", {"pattern_set_id": "pat:bad"})
        assert got["isError"] and "not loaded" in got["content"][0]["text"]
    finally:
        srv.close()
    # a set stored by an older version (or planted): the start does not compile it, the pattern tools refuse it
    folder = data / "pattern_sets"
    folder.mkdir(exist_ok=True)
    (folder / "old.json").write_text(json.dumps({"id": "pat:old", "patterns": PATHOLOGICAL["compile"]}))
    srv = RawServer(data, "--tools", "all")
    try:
        assert srv.initialize()["result"]
        listed = _call(srv, "pattern_list", {})
        assert "pat:old" not in json.dumps(listed)
    finally:
        srv.close()
