"""A backend lacking capabilities: every check that did not pass is listed (failed steps and checks not run)."""
import contextlib
import io
import json

from bench.cli.main import main


def test_every_check_that_did_not_pass_is_listed(tmp_path):
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert main(["run", "smoke", "--backend", "jsonl-graph", "--out", str(tmp_path), "--quiet"]) == 0
    s = json.loads((tmp_path / "report.json").read_text())["scenarios"]["smoke"]
    checks = s["checks"]
    assert checks["passed"] < checks["total"]          # jsonl-graph has no memory.search: checks 10/22 here
    listed = sum(p["checks"] for p in s["not_run"]) + len(s["problems"])
    assert s["not_run"] and listed >= checks["total"] - checks["passed"], (listed, checks)
    assert all(p["message"].startswith("needs ") for p in s["not_run"])
    assert "not run  memory_search_structured" in out.getvalue()
    html = (tmp_path / "report.html").read_text()
    assert html.count(">not run<") == len(s["not_run"])
