"""The command line end to end: run writes a report, is deterministic, and every command is documented."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench.cli.main import COMMANDS, main

ROOT = Path(__file__).resolve().parents[3]


def quality(report_path: Path) -> dict:
    data = json.loads(report_path.read_text())
    return {name: (s["quality"], s["per_query"], s["checks"]) for name, s in data["scenarios"].items()}


def test_every_command_is_documented_in_the_readme():
    readme = (ROOT / "README.md").read_text()
    for mod in COMMANDS:
        assert f"codemem-bench {mod.NAME}" in readme, mod.NAME


def test_run_smoke_writes_report_and_is_deterministic(tmp_path, capsys):
    assert main(["run", "smoke", "--out", str(tmp_path / "a"), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "smoke" in out and "ndcg@10" in out
    assert (tmp_path / "a" / "report.md").exists()
    assert (tmp_path / "a" / "telemetry" / "smoke.jsonl").exists()
    assert main(["run", "smoke", "--out", str(tmp_path / "b"), "--quiet"]) == 0
    assert quality(tmp_path / "a" / "report.json") == quality(tmp_path / "b" / "report.json")
    report = json.loads((tmp_path / "a" / "report.json").read_text())
    assert report["schema_version"] == 1 and report["score"]["value"] is not None


def test_malformed_scenario_exits_2_naming_the_line(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"scenario": "bad", "format": 1}\n{"tool": "memory_get", "args": {}}\n')
    assert main(["run", str(bad), "--out", str(tmp_path / "o")]) == 2
    assert re.search(r"bad\.jsonl:2: args\.memory_id", capsys.readouterr().err)


def test_unknown_backend_and_scenario_exit_2(tmp_path, capsys):
    assert main(["run", "smoke", "--backend", "nope", "--out", str(tmp_path)]) == 2
    assert "unknown backend 'nope'" in capsys.readouterr().err
    assert main(["run", "no-such-scenario", "--out", str(tmp_path)]) == 2


def test_backends_scenarios_and_score_commands(tmp_path, capsys):
    assert main(["backends"]) == 0 and "reference" in capsys.readouterr().out
    assert main(["scenarios"]) == 0 and "sqlite-utils-blame" in capsys.readouterr().out
    main(["run", "smoke", "--out", str(tmp_path), "--quiet"])
    capsys.readouterr()
    assert main(["score", str(tmp_path)]) == 0
    recomputed = json.loads(capsys.readouterr().out)
    assert recomputed == json.loads((tmp_path / "report.json").read_text())["score"]


def test_console_script_runs(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "bench.cli.main", "run", "smoke", "--out", str(tmp_path), "--quiet"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "report.json").exists()
