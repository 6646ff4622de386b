"""Run history: each run keeps its own folder, `reports/latest/<backend>` points to the newest (bench/report/runs.py)."""
import contextlib
import io
import json
from datetime import datetime, timezone

import pytest

from bench.cli.main import main
from bench.report import runs


@pytest.fixture
def reports(tmp_path, monkeypatch):
    """A reports folder of its own, as `run` without --out would use."""
    root = tmp_path / "reports"
    monkeypatch.setattr("bench.scenario.home.reports_dir", lambda: root)
    return root


def quiet_run(*argv):
    with contextlib.redirect_stdout(io.StringIO()) as buf:
        rc = main(["run", *argv, "--quiet", "--no-seed-defaults"])
    assert rc == 0, buf.getvalue()
    return buf.getvalue()


def test_two_runs_leave_two_folders_latest_points_to_the_newest_and_the_second_shows_a_trend(reports):
    quiet_run("smoke")
    quiet_run("smoke")
    kept = sorted(p.name for p in (reports / "runs").iterdir())
    assert len(kept) == 2 and all(n.endswith("-reference") or n.endswith("-reference-2") for n in kept), kept
    latest = reports / "latest" / "reference"
    assert latest.is_symlink() and latest.resolve() == (reports / "runs" / kept[-1]).resolve()
    assert (latest / "report.json").is_file() and (latest / "report.html").is_file()
    first, second = (json.loads((reports / "runs" / n / "report.json").read_text()) for n in kept)
    # the wall clock names the folder only; latency (and the score value it enters) is the machine's, so it
    # is left out: under the full suite's load smoke's p95 can cross its budget in one run and not the other
    def deterministic(score: dict) -> dict:
        return {**score, "value": None, "components": {k: v for k, v in score["components"].items() if k != "latency"}}
    assert deterministic(first["score"]) == deterministic(second["score"])
    html = (latest / "report.html").read_text()
    assert 'id="trend"' in html and "The last 2 runs" in html
    assert "No earlier kept run" in (reports / "runs" / kept[0] / "report.html").read_text()


def test_out_writes_where_asked_keeps_no_history_and_shows_no_trend(reports, tmp_path):
    quiet_run("smoke")                                   # one kept run: an --out run must not plot it
    quiet_run("smoke", "--out", str(tmp_path / "mine"))
    assert (tmp_path / "mine" / "report.json").is_file()
    assert len(list((reports / "runs").iterdir())) == 1
    assert "No earlier kept run" in (tmp_path / "mine" / "report.html").read_text()


def test_a_latest_folder_from_before_is_moved_into_runs_not_lost(reports):
    old = reports / "latest" / "reference"
    old.mkdir(parents=True)
    (old / "report.json").write_text(json.dumps({"environment": {"date": "2026-11-01T10:00:00Z"}}))
    run = runs.new_run_dir(reports, "reference", datetime(2026, 11, 27, 14, 0, 0, tzinfo=timezone.utc))
    runs.point_latest(reports, "reference", run)
    assert (reports / "runs" / "20261101T100000Z-reference" / "report.json").is_file()
    assert old.is_symlink() and old.resolve() == run.resolve()


def test_folders_of_one_second_get_a_suffix_and_history_keeps_to_its_backend(reports):
    now = datetime(2026, 11, 27, 14, 0, 0, tzinfo=timezone.utc)
    a, b = runs.new_run_dir(reports, "reference", now), runs.new_run_dir(reports, "reference", now)
    c = runs.new_run_dir(reports, "reference:memory-lane", now)
    assert (a.name, b.name, c.name) == ("20261127T140000Z-reference", "20261127T140000Z-reference-2",
                                        "20261127T140000Z-reference-memory-lane")
    for d, backend, score in ((a, "reference", 1.0), (b, "reference", 2.0), (c, "reference:memory-lane", 3.0)):
        runs.write_run_figures(d, {"backend": backend, "score": {"value": score}, "scenarios": {}})
    assert [p["score"] for p in runs.history(reports, "reference")] == [1.0, 2.0]
    assert [p["score"] for p in runs.history(reports, "reference:memory-lane")] == [3.0]


def test_the_trend_needs_two_runs_and_draws_the_score():
    from bench.report.quality_plots import trend_chart
    point = {"date": "2026-11-27T14:00:00Z", "score": 67.5, "suite": ["smoke", "graph-pit"],
             "scenarios": {"smoke": {"ndcg@10": 0.98, "check_rate": 1.0}, "graph-pit": {"check_rate": 1.0}}}
    assert trend_chart([point]) is None
    png = trend_chart([point, {**point, "score": 67.6}])
    assert png is not None and png[:8] == b"\x89PNG\r\n\x1a\n"
