"""Regenerating a generated scenario gives the committed files byte for byte.

With the independence test this makes "no scenario's truth changes when
reference/ changes" checkable: the truth is a function of the generator, its
spec and the copied data only.
"""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GEN = ROOT / "scenarios" / "generators"


def _load(name: str):
    sys.path.insert(0, str(GEN))
    try:
        spec = importlib.util.spec_from_file_location(f"_gen_{name}", GEN / f"{name}.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    finally:
        sys.path.remove(str(GEN))


def test_patterns_regenerates_identically():
    mod = _load("patterns")
    lines, files, truth = mod.generate()
    assert mod.render(lines) == (ROOT / "scenarios" / "patterns.jsonl").read_text()
    assert json.dumps(truth, indent=1, sort_keys=True) + "\n" == (ROOT / "oracle_data/patterns/truth.json").read_text()
    for rel, data in files.items():
        assert (ROOT / "scenarios/fixtures/patterns" / rel).read_bytes() == data, rel


@pytest.mark.parametrize("name", ["memory_lane"])
def test_generator_regenerates_identically(name):
    mod = _load(name)
    out = mod.generate()
    lines = out[0] if isinstance(out, tuple) else out
    text = "".join(json.dumps(x, sort_keys=True) + "\n" for x in lines)
    assert text == (ROOT / "scenarios" / f"{mod.NAME}.jsonl").read_text()


def test_knowledge_history_regenerates_identically():
    mod = _load("knowledge_history")
    for calibration in (False, True):
        lines, truth = mod.build(mod.DEFAULT_DATA, calibration)
        name = lines[0]["scenario"]
        assert mod.render(lines) == (ROOT / "scenarios" / f"{name}.jsonl").read_text()
        assert json.dumps(truth, indent=1, sort_keys=True) + "\n" == (ROOT / f"oracle_data/{name}/truth.json").read_text()


def test_knowledge_history_refuses_two_data_folders_of_one_name(tmp_path, capsys):
    mod = _load("knowledge_history")
    a, b = tmp_path / "a" / "repo", tmp_path / "b" / "repo"   # as two mirrors' folders would be named
    with pytest.raises(ValueError, match="repo given twice"):
        mod.build([a, b], False)
    assert mod.main([str(a), str(b)]) == 2
    assert "distinct names" in capsys.readouterr().err


def test_knowledge_history_asks_100_blame_judged_searches():
    mod = _load("knowledge_history")
    facts = _load("history_facts")
    origins = {}
    for d in mod.DEFAULT_DATA:
        commits, blame = facts.load(d)
        for c in commits:
            got = (blame.get(c["sha"]) or {}).get("origins") or {}
            origins[mod.alias(d.name, c)] = {mod.alias(d.name, {"sha": o}): n for o, n in got.items()}
    lines, truth = mod.build(mod.DEFAULT_DATA, False)
    assert len(truth["searches"]) >= 100
    written, asked = set(), None
    for step in lines[1:]:
        if step.get("tool") == "oracle_search":
            asked = step["id"][2:]   # asked just before that memory is written
            expected = {o: 2 if n >= 10 else 1 for o, n in origins[asked].items() if o in written}
            assert step["expect"]["relevant"] == expected and expected
        if step.get("tool") == "memory_write_structured":
            # every memory that rewrites lines of one already written is asked about
            assert (asked == step["as"]) == bool(set(origins[step["as"]]) & written)
            written.add(step["as"])


def test_scored_knowledge_history_holds_no_calibration_commit():
    mod = _load("knowledge_history")
    facts = _load("history_facts")
    calib = set()
    for d in mod.DEFAULT_DATA:
        commits, _ = facts.load(d)
        calib |= {mod.alias(d.name, c) for c in commits if facts.is_calibration(c)}
    lines, truth = mod.build(mod.DEFAULT_DATA, False)
    assert truth["entities"] and not set(truth["entities"]) & calib
    lines, truth = mod.build(mod.DEFAULT_DATA, True)
    assert {r["source"] for r in truth["relationships"]} <= calib
