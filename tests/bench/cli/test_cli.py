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
    err = capsys.readouterr().err
    assert "unknown backend 'nope'" in err
    # the message itself, not a KeyError's quoted repr; `mcp` only as the specs a user can pass
    assert "error: unknown backend" in err and not err.rstrip().endswith('"'), err
    known = [k.strip() for k in err.split("known:", 1)[1].split(",")]
    assert "mcp" not in known and "mcp:reference" in known and "reference-mcp" in known, known
    assert main(["run", "no-such-scenario", "--out", str(tmp_path)]) == 2


def test_run_skip_leaves_a_scenario_out_and_refuses_one_not_to_be_run(tmp_path, capsys):
    assert main(["run", "smoke", "patterns", "--skip", "patterns", "--out", str(tmp_path / "a"), "--quiet",
                 "--no-seed-defaults"]) == 0
    assert list(json.loads((tmp_path / "a" / "report.json").read_text())["scenarios"]) == ["smoke"]
    capsys.readouterr()
    assert main(["run", "--suite", "small", "--skip", "sqlite-utils-blam", "--out", str(tmp_path / "b")]) == 2
    assert "--skip sqlite-utils-blam: not among the scenarios to run" in capsys.readouterr().err
    assert not (tmp_path / "b").exists()


def test_reference_mcp_lists_the_capabilities_of_its_adapter(capsys):
    """`reference-mcp` is `mcp:reference` under its own name: both rows show the same capabilities."""
    from bench.backends.mcp.adapter import load_adapter
    assert main(["backends"]) == 0
    lines = capsys.readouterr().out.splitlines()
    caps = {lines[i].split()[0]: lines[i + 1].strip() for i in range(0, len(lines) - 1)
            if lines[i] and not lines[i].startswith(" ")}
    expected = ", ".join(sorted(c.value for c in load_adapter("reference").capabilities))
    assert caps["reference-mcp"] == caps["mcp:reference"] == expected
    assert main(["backends", "--matrix"]) == 0
    table = capsys.readouterr().out.split("\n\n")[0]    # backends whose extra is missing are named after it
    rows = [ln.split() for ln in table.splitlines()]
    col = rows[0].index("reference-mcp")   # the header's first cell is "capability"
    assert [r[col] for r in rows[1:]] == [r[rows[0].index("mcp:reference")] for r in rows[1:]]
    assert sum(r[col] == "yes" for r in rows[1:]) == len(load_adapter("reference").capabilities)


def test_a_backend_without_its_extra_is_named_after_the_matrix_and_the_list(monkeypatch, capsys):
    """The matrix starts with its header with or without every extra; the missing ones follow, with the install."""
    from bench.cli import backends_cmd
    real = backends_cmd.backend_class

    def without_fts(name):
        if name == "fts-baseline":
            raise ImportError("backend 'fts-baseline' needs nothing-here: pip install nothing-here")
        return real(name)

    monkeypatch.setattr(backends_cmd, "backend_class", without_fts)
    for args in (["backends", "--matrix"], ["backends"]):
        assert main(args) == 0
        body, _, rest = capsys.readouterr().out.partition("\n\n")
        assert "fts-baseline" not in body and "reference" in body
        notes = rest.strip().splitlines()   # with the other extras this machine lacks, if any
        assert "fts-baseline     unavailable: backend 'fts-baseline' needs nothing-here: pip install nothing-here" in notes
        assert all(" unavailable: " in line for line in notes)
    assert main(["backends", "--matrix"]) == 0
    assert capsys.readouterr().out.startswith("capability ")


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
