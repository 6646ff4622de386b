"""TelemetryEvent.to_json: the same line `json.dumps(asdict(event))` gives, every field included."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields

from reference.telemetry import TelemetryEvent


@dataclass
class Inner:
    a: int
    b: list


def _event(extra):
    return TelemetryEvent("write", "mem:00000001", "edge", "repo:x", "run", None, 12.5, 0.25, "store", extra)


def test_same_line_as_asdict_for_nested_extras():
    for extra in ({}, {"rev": 3, "kind": "edge", "rel": "calls", "dst": "file:é.py"},
                  {"nested": {"z": [1, 2.5, None, {"k": "v"}], "a": True}}):
        e = _event(extra)
        assert e.to_json() == json.dumps(asdict(e), sort_keys=True, separators=(",", ":"))


def test_a_dataclass_in_extra_is_still_serialised():
    e = _event({"inner": Inner(1, [2])})
    assert json.loads(e.to_json())["extra"] == {"inner": {"a": 1, "b": [2]}}


def test_every_field_is_written():
    assert set(json.loads(_event({}).to_json())) == {f.name for f in fields(TelemetryEvent)}
