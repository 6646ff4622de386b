"""Load, scan, list and telemetry of `PatternSetManager` (expected values by hand)."""
from __future__ import annotations

import pytest

from reference.clock import LogicalClock
from reference.errors import NotFound, StoreError
from reference.patterns import PatternMatch, PatternSetManager, UnknownPatternSet
from reference.telemetry import ListSink

TODO = {"id": "pat:todo", "description": "todo markers", "patterns": [r"TODO\(\w+\)", r"FIXME"],
        "names": ["todo", "fixme"], "tags": ["hygiene"]}


@pytest.fixture
def manager(tmp_path):
    return PatternSetManager(tmp_path, builtins=False)


def test_load_scan_returns_byte_offsets_and_pattern(manager):
    ps = manager.load(TODO)
    assert ps.id == "pat:todo" and ps.patterns == TODO["patterns"] and ps.compiled_db
    data = b"x = 1  # TODO(ana) later\n# FIXME: FIXME\n"
    assert manager.scan("pat:todo", data) == [
        PatternMatch(0, r"TODO\(\w+\)", 9, 18, "todo"),
        PatternMatch(1, "FIXME", 27, 32, "fixme"),
        PatternMatch(1, "FIXME", 34, 39, "fixme"),
    ]
    assert data[9:18] == b"TODO(ana)"


def test_scan_without_matches_and_empty_input(manager):
    manager.load(TODO)
    assert manager.scan("pat:todo", b"nothing to see") == []
    assert manager.scan("pat:todo", b"") == []


def test_scan_rejects_text(manager):
    manager.load(TODO)
    with pytest.raises(TypeError, match="bytes"):
        manager.scan("pat:todo", "TODO(x)")


def test_list_reports_metadata_sorted(manager):
    manager.load(TODO)
    manager.load({"id": "pat:abc", "patterns": ["abc"]})
    listed = manager.list()
    assert [s["id"] for s in listed] == ["pat:abc", "pat:todo"]
    todo = listed[1]
    assert todo["pattern_count"] == 2 and todo["names"] == ["todo", "fixme"]
    assert todo["tags"] == ["hygiene"] and todo["description"] == "todo markers"
    assert listed[0]["names"] == ["pattern-0"] and listed[0]["description"] == ""


def test_builtin_sets_are_loaded(shared_manager):
    ids = [s["id"] for s in shared_manager.list()]
    assert "pat:security-smells" in ids and "pat:secrets" in ids
    smells = shared_manager.get("pat:security-smells")
    # the seed 000 §1.1 example is kept verbatim
    assert smells.patterns[:4] == ["eval\\s*\\(", "exec\\s*\\(", "subprocess\\.call.*shell\\s*=\\s*True",
                                   "password\\s*=\\s*['\"][^'\"]+['\"]"]
    code = b'import os\nos.system(cmd)\ndata = pickle.loads(blob)\nrequests.get(url, verify=False)\n'
    names = [(m.name, code[m.start:m.end]) for m in shared_manager.scan("pat:security-smells", code)]
    assert names == [("os-system", b"os.system("), ("pickle-load", b"pickle.loads("),
                     ("tls-verify-disabled", b"verify=False")]


def test_reload_replaces_set(manager):
    manager.load(TODO)
    manager.load({"id": "pat:todo", "patterns": ["XXX"]})
    assert manager.scan("pat:todo", b"TODO(a) XXX") == [PatternMatch(0, "XXX", 8, 11, "pattern-0")]


def test_unknown_set_names_known_ids(manager):
    manager.load(TODO)
    with pytest.raises(UnknownPatternSet) as err:
        manager.scan("pat:nope", b"x")
    assert isinstance(err.value, NotFound) and isinstance(err.value, StoreError)
    assert "pat:nope" in str(err.value) and "pat:todo" in str(err.value)
    with pytest.raises(UnknownPatternSet):
        manager.scan_many("pat:nope", [])
    with pytest.raises(UnknownPatternSet):
        manager.get("pat:nope")


def test_scan_many_keeps_matching_items_in_order(manager):
    manager.load(TODO)
    items = [("mem:00000001", b"FIXME now"), ("mem:00000002", b"clean"), ("mem:00000003", b"TODO(bo)")]
    out = manager.scan_many("pat:todo", iter(items))
    assert out == [("mem:00000001", [PatternMatch(1, "FIXME", 0, 5, "fixme")]),
                   ("mem:00000003", [PatternMatch(0, r"TODO\(\w+\)", 0, 8, "todo")])]


def test_query_event_per_scan(tmp_path):
    sink, clock = ListSink(), LogicalClock(1_700_000_123.0)
    manager = PatternSetManager(tmp_path, sink, clock=clock, builtins=False)
    manager.load(TODO)
    manager.scan("pat:todo", b"FIXME FIXME", target="file:src/a.py")
    clock.advance(5)
    manager.scan_many("pat:todo", [("a", b"FIXME"), ("b", b"no")])
    assert len(sink.events) == 2
    first, second = sink.events
    assert (first.op, first.scope, first.memory_id, first.entity_type) == ("query", "pat:todo", "file:src/a.py", "pattern_set")
    assert first.timestamp == 1_700_000_123.0 and first.latency_ms >= 0
    assert first.extra == {"pattern_set": "pat:todo", "bytes": 11, "matches": 2}
    assert second.timestamp == 1_700_000_128.0
    assert second.extra == {"pattern_set": "pat:todo", "bytes": 7, "items": 2, "matched_items": 1, "matches": 1}


def test_set_flags_apply_to_every_pattern(manager):
    manager.load({"id": "pat:ci", "patterns": ["secret", "^key"], "flags": ["caseless", "multiline"]})
    got = [(m.pattern_index, m.start, m.end) for m in manager.scan("pat:ci", b"SeCrEt\nKEY secret")]
    assert got == [(0, 0, 6), (1, 7, 10), (0, 11, 17)]


@pytest.mark.parametrize("text,found", [
    ("obj = yaml.load(open(request.args['q']), Loader=yaml.Loader)", True),  # a call inside the arguments
    ("obj = yaml.load(f, Loader=yaml.FullLoader)", True),
    ("obj = yaml.load(open(p), Loader=yaml.SafeLoader)", False),
])
def test_yaml_unsafe_loader_sees_past_a_nested_call(shared_manager, text, found):
    names = {m.name for m in shared_manager.scan("pat:security-smells", text.encode())}
    assert ("yaml-unsafe-loader" in names) is found
