"""`gate --against REV`: both sides run in one job, so latency is gated; a planted slowdown is caught."""
import json
import shutil
import subprocess

import pytest

from bench.cli.main import main
from bench.gate.against import pool
from bench.report import Report
from bench.scenario.home import project_root

pytestmark = pytest.mark.skipif(shutil.which("git") is None or subprocess.run(
    ["git", "-C", str(project_root()), "rev-parse", "HEAD"], capture_output=True).returncode != 0,
    reason="needs a git checkout (gate --against exports a commit)")


def test_against_head_runs_both_sides_in_one_job_and_gates_latency(tmp_path, capsys, monkeypatch):
    # a relative --out, as .ci/run gives it: each side runs in its own tree, the reports land here
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "against"
    code = main(["gate", "--against", "HEAD", "--scenarios", "smoke", "--repeat", "2", "--rounds", "1",
                 "--out", "against", "--json", str(tmp_path / "gate.json")])
    text = capsys.readouterr().out
    assert code == 0, text
    base, cand = (json.loads((out / side / "report.json").read_text()) for side in ("baseline", "candidate"))
    assert base["environment"]["job"] == cand["environment"]["job"] and base["environment"]["job"]
    assert "note * gate: same-job run " in text and "latency: not gated" not in text
    findings = json.loads((tmp_path / "gate.json").read_text())["findings"]
    assert any(f["metric"] == "latency.memory_search_structured.p10" and f["kind"] == "ok" for f in findings)
    assert "gate: PASS" in text
    assert main(["gate", "--against", "no-such-rev-xyz", "--scenarios", "smoke", "--out", str(tmp_path / "x")]) == 2


def test_pooling_rounds_keeps_every_rounds_samples(tmp_path):
    from tests.bench.gate.test_gate_unit import BASE, MACHINE, section
    paths = []
    for i in range(2):
        s = section(BASE, samples={"memory_search_structured": [1.0 + i] * 30})
        Report("reference", [], {"demo": s}, {"machine": MACHINE}, {"declared": True, "repetitions": 3}
               ).save(tmp_path / str(i))
        paths.append(tmp_path / str(i))
    r = pool(paths, "job-x")
    assert r.environment["job"] == "job-x" and r.determinism == {"declared": True, "repetitions": 6}
    assert sorted(set(r.scenarios["demo"]["latency_samples_ms"]["memory_search_structured"])) == [1.0, 2.0]
