"""`bench.gate.calibrate`: how it counts false alarms and catches, and one small real run."""
import json

import pytest

from bench.gate.calibrate import calibrate, main
from bench.gate.gate import GateOptions
from bench.report import Report

MACHINE = {"machine": {"cpu_model": "Demo", "cpu_count": 2, "arch": "x86_64", "system": "Linux",
                       "hostname": "h", "python": "CPython 3.11.7"}, "job": "calibrate-demo"}


def section(search_ms):
    samples = {"memory_search_structured": [search_ms + i / 100 for i in range(30)],
               "memory_write_structured": [2.0 + i / 100 for i in range(30)]}
    return {"description": "", "steps": {"total": 60, "ok": 60, "failed": 0, "error": 0, "unsupported": 0},
            "quality": {}, "quality_by_category": {}, "checks": {"passed": 1, "total": 1, "rate": 1.0},
            "metrics": {}, "latency_ms": {"all": {"n": 60}}, "latency_budget_ms": 50.0, "storage_bytes": 1,
            "targets": [], "problems": [], "unsupported": {}, "per_query": [],
            "latency_repetitions": [{"all": {"n": 60}}], "latency_samples_ms": samples}


def save(tmp_path, name, search_ms):
    path = tmp_path / name
    Report("reference", [], {"demo": section(search_ms)}, MACHINE).save(path)
    return path


def test_counts_alarms_over_every_unchanged_pair_and_catches_per_delayed_run(tmp_path):
    unchanged = [save(tmp_path, f"u{i}", 1.0 + i / 10) for i in range(4)]   # small drift: no alarm
    delayed = [save(tmp_path, "d1", 6.0), save(tmp_path, "d2", 1.1)]       # d2: the delay got lost
    r = calibrate(unchanged, delayed, GateOptions())
    assert (r["false_alarm_gates"], r["false_alarms"]) == (6, 0)
    assert (r["delay_gates"], r["delay_caught"]) == (8, 4)
    assert r["delay_gates_with_other_regressions"] == 0


def test_an_alarm_between_unchanged_runs_is_counted(tmp_path):
    unchanged = [save(tmp_path, "u1", 1.0), save(tmp_path, "u2", 9.0)]
    r = calibrate(unchanged, [], GateOptions())
    assert r["false_alarms"] == 1
    assert r["gates"]["unchanged_pairs"][0]["regressions"][0].startswith(
        "REGRESSION demo latency.memory_search_structured.p10: ")


def test_small_real_run_catches_the_planted_delay(tmp_path, capsys):
    assert main(["smoke", "--runs", "2", "--repeat", "2", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    r = json.loads((tmp_path / "calibration.json").read_text())
    assert [t["run"] for t in r["timeline"]] == ["unchanged-1", "delayed-1", "unchanged-2", "delayed-2"]
    assert r["false_alarm_gates"] == 1 and r["delay_gates"] == 4
    # a 5 ms sleep before each of smoke's 22 searches moves their p10 by 5 ms on any machine
    assert r["delay_caught"] == 4, out
    assert f"delay caught: 4 of 4 gates" in out
    with pytest.raises(SystemExit):
        main(["smoke", "--runs", "1"])
