"""`bench.report.relationship_cases` groups a run's planted pairs by (planted, stored) with what their texts share."""
import json
from pathlib import Path

from bench.report.relationship_cases import cases, groups, main
from bench.run import run_suite
from bench.scenario.loader import load_scenario

T0 = 1_767_225_600


def _scenario(tmp_path: Path) -> Path:
    text = {"a": "Retry failed charges in billing (src/billing/retry.py).",
            "b": "Retry failed charges twice in billing (src/billing/retry.py).",
            "c": "Document the release checklist (docs/release.md)."}
    steps = [{"scenario": "rel-mini", "format": 1, "start_time": T0}]
    for alias in "abc":
        steps += [{"tool": "memory_write_structured", "as": alias, "args": {"text": text[alias]}},
                  {"directive": "advance_clock", "seconds": 2 * 86400}]
    steps.append({"directive": "score_knowledge", "truth": "truth.json"})
    truth = {"entities": {"a": ["file:src/billing/retry.py", "symbol:retry"],
                          "b": ["file:src/billing/retry.py", "symbol:retry", "symbol:charge"],
                          "c": ["file:docs/release.md"]},
             "relationships": [{"source": "b", "target": "a", "type": "updates"},
                               {"source": "c", "target": "a", "type": "none"}]}
    (tmp_path / "truth.json").write_text(json.dumps(truth))
    path = tmp_path / "rel-mini.jsonl"
    path.write_text("".join(json.dumps(s) + "\n" for s in steps))
    return path


def test_each_pair_gets_what_its_memories_share_and_the_days_between_them(tmp_path, capsys):
    report = run_suite("reference", [load_scenario(_scenario(tmp_path))], tmp_path / "out")
    report.save(tmp_path / "out")
    df = cases(report.to_dict(), "rel-mini").set_index(["source", "target"])
    assert df.loc[("b", "a"), "file_j"] == 1.0 and df.loc[("b", "a"), "symbol_j"] == 0.5
    assert df.loc[("b", "a"), "days"] == 2.0 and df.loc[("c", "a"), "days"] == 4.0
    assert df.loc[("c", "a"), "file_j"] == 0.0 and df.loc[("c", "a"), "truth"] == "none"
    assert df.loc[("b", "a"), "source_text"].startswith("Retry failed charges twice")
    g = groups(df.reset_index())
    assert g["pairs"].sum() == 2 and ("none", df.loc[("c", "a"), "detected"]) in g.index
    assert main([str(tmp_path / "out"), "--scenario", "rel-mini", "--list"]) == 0
    out = capsys.readouterr().out
    assert "median symbol Jaccard" in out and "Retry failed charges twice" in out


def test_a_scenario_without_planted_pairs_is_a_short_error(tmp_path, capsys):
    (tmp_path / "report.json").write_text(json.dumps({"scenarios": {"smoke": {"file": "x", "relationships": {}}}}))
    assert main([str(tmp_path), "--scenario", "smoke"]) == 2
    assert "lists no planted relationship pairs" in capsys.readouterr().err
    assert main([str(tmp_path), "--scenario", "nope"]) == 2
    assert "no scenario 'nope'" in capsys.readouterr().err
