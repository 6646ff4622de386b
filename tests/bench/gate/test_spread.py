"""`bench.gate.spread`: the tolerance it suggests is the smallest at which the gate passes every pair of runs.

Runs are copies of the committed basic-memory baseline with noise of known size; no server is started.
"""
import copy
import json
from pathlib import Path

import pytest

from bench.gate.spread import main, measure
from tests.bench.gate.report_edits import RANKING, emptied, one_query_missed, saved

BASELINE = Path(__file__).parents[3] / "reports" / "baseline" / "mcp-basic-memory" / "report.json"


def _run(tmp_path: Path, name: str, report: dict) -> Path:
    return saved(report, tmp_path / name)


def _checked(report: dict) -> tuple[str, dict]:
    """The first scenario with a check rate to lower."""
    return next((n, s) for n, s in report["scenarios"].items() if s["checks"]["rate"] > 0.1)


@pytest.fixture
def baseline() -> dict:
    return json.loads(BASELINE.read_text())


def test_the_suggestion_is_the_largest_confirmed_worsening_rounded_up_and_the_gate_agrees(tmp_path, baseline):
    dipped = copy.deepcopy(baseline)
    name, scenario = _checked(dipped)
    scenario["checks"]["rate"] -= 0.012
    missed = copy.deepcopy(baseline)
    ranked = one_query_missed(missed)   # one query: too few for the paired test to be significant
    runs = [_run(tmp_path, "a", baseline), _run(tmp_path, "b", dipped), _run(tmp_path, "c", missed)]
    spread = measure(runs)
    assert spread.swing((name, "check_rate")) == pytest.approx(0.012)
    assert spread.swing((ranked, "ndcg@10")) > 0.0     # the missed query moved the mean ...
    # ... but one query cannot make the paired test significant, so only the check rate sets the need
    need, why = spread.needs[(0, 1)]
    assert need == pytest.approx(0.012) and f"{name} check_rate" in why
    assert spread.needs[(0, 2)][0] == 0.0 and spread.needs[(1, 0)][0] == 0.0   # b against a: better
    assert spread.need == pytest.approx(0.012) and spread.largest_swing()[0] == pytest.approx(0.012)
    assert spread.suggested == 0.015
    assert spread.checked == {"every pair at 0.015": "pass",
                              "one step below the need, at 0.01": "fails 2 of 6 pairs"}


def test_a_swing_that_the_paired_test_absorbs_still_raises_the_suggestion(tmp_path, baseline):
    """One query of a small scenario moves its mean a lot: the gate passes it, but a count could move as far."""
    moved = copy.deepcopy(baseline)
    name, smallest = min(((n, s) for n, s in moved["scenarios"].items() if s["per_query"]),
                         key=lambda kv: len(kv[1]["per_query"]))
    answered = next(q for q in smallest["per_query"] if q.get("mrr@10"))
    swing = answered["mrr@10"] / len(smallest["per_query"])
    answered["mrr@10"] = 0.0
    spread = measure([_run(tmp_path, "a", baseline), _run(tmp_path, "b", moved)])
    assert spread.need == 0.0 and swing > 0.02
    assert spread.largest_swing() == (pytest.approx(swing), (name, "mrr@10"))
    assert swing <= spread.suggested < swing + 0.005
    assert list(spread.checked) == [f"every pair at {spread.suggested:g}"]


def test_identical_runs_need_nothing(tmp_path, baseline):
    spread = measure([_run(tmp_path, "a", baseline), _run(tmp_path, "b", baseline)])
    assert spread.suggested == 0.0 and spread.need == 0.0 and all(n == 0.0 for n, _ in spread.needs.values())
    assert spread.checked == {"every pair at 0": "pass"}
    assert "0 moved" in spread.to_table()


def test_a_broken_run_is_not_absorbed_quietly(tmp_path, baseline):
    """A run in which every search came back empty needs a tolerance as large as the whole score: it shows."""
    spread = measure([_run(tmp_path, "a", baseline), _run(tmp_path, "b", emptied(baseline))])
    need, why = spread.needs[(0, 1)]
    assert need > 0.3 and spread.suggested >= need and "REGRESSION" in why
    assert any(f" {m}: " in why for m in RANKING)


def test_the_command_prints_the_table_and_writes_json(tmp_path, baseline, capsys):
    dipped = copy.deepcopy(baseline)
    name, scenario = _checked(dipped)
    scenario["checks"]["rate"] -= 0.02
    out = tmp_path / "spread.json"
    assert main([str(_run(tmp_path, "a", baseline)), str(_run(tmp_path, "b", dipped) / "report.json"),
                 "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert f"| {name} | check_rate |" in text and "suggested min_effect: 0.02" in text
    data = json.loads(out.read_text())
    assert data["suggested_min_effect"] == 0.02 and data["need"] == pytest.approx(0.02) and len(data["pairs"]) == 2


def test_runs_of_other_backends_or_scenarios_are_refused_by_name(tmp_path, baseline, capsys):
    other = copy.deepcopy(baseline)
    other["backend"] = "mcp:server-memory"
    a, b = _run(tmp_path, "a", baseline), _run(tmp_path, "b", other)
    assert main([str(a), str(b)]) == 2
    assert f"{b}: backend 'mcp:server-memory'" in capsys.readouterr().err
    fewer = copy.deepcopy(baseline)
    fewer["scenarios"].pop(next(iter(fewer["scenarios"])))
    assert main([str(a), str(_run(tmp_path, "c", fewer))]) == 2
    assert "scenarios" in capsys.readouterr().err
    assert main([str(a)]) == 2
    assert "at least two runs" in capsys.readouterr().err
    assert main([str(a), str(tmp_path / "missing")]) == 2
    assert "cannot read report" in capsys.readouterr().err
