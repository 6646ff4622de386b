"""`run --save NAME` keeps a run under reports/history/NAME/; `run --compare NAME` shows the change."""
import contextlib
import io
import json

import pytest

from bench.cli.main import main
from bench.report.history import changes, changes_table, check_name, load_saved, save_run


def test_save_keeps_the_report_files(smoke_run):
    out, history, text = smoke_run
    assert sorted(p.name for p in (history / "first").iterdir()) == ["report.html", "report.json", "report.md"]
    assert (history / "first" / "report.json").read_bytes() == (out / "report.json").read_bytes()
    assert "saved as 'first'" in text


def test_changes_list_score_components_and_scenario_figures(smoke_report, trouble):
    saved = json.loads(json.dumps(smoke_report))
    now = trouble(smoke_report)
    now["score"]["value"] = saved["score"]["value"] - 3.25
    rows = {(r["scope"], r["figure"]): r for r in changes(now, saved)}
    assert rows[("suite", "score")]["change"] == pytest.approx(-3.25)
    assert rows[("smoke", "targets met")]["saved"] == 1.0 and rows[("smoke", "targets met")]["now"] == 0.5
    assert rows[("smoke", "ndcg@10")]["change"] == 0
    assert any(k[1].startswith("component ") for k in rows)
    table = changes_table(list(rows.values()), "first")
    assert "suite score" in table and "-3.25" in table and "smoke targets met" in table
    assert "smoke ndcg@10" not in table  # unchanged figures are only counted


def test_compare_against_the_saved_run_prints_and_renders_the_change(smoke_run, tmp_path, monkeypatch):
    _, history, _ = smoke_run
    monkeypatch.setattr("bench.report.history.history_root", lambda: history)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["run", "smoke", "--out", str(tmp_path), "--quiet", "--compare", "first"]) == 0
    assert "change against saved run 'first'" in buf.getvalue()
    html = (tmp_path / "report.html").read_text()
    assert 'id="changes"' in html and "Change against saved run" in html


def test_unknown_saved_run_fails_before_running(smoke_run, tmp_path, monkeypatch, capsys):
    _, history, _ = smoke_run
    monkeypatch.setattr("bench.report.history.history_root", lambda: history)
    assert main(["run", "smoke", "--out", str(tmp_path), "--quiet", "--compare", "nope"]) == 2
    err = capsys.readouterr().err
    assert "no saved run 'nope'" in err and "first" in err
    assert not (tmp_path / "report.json").exists()


@pytest.mark.parametrize("bad", ["", "../x", "a/b", ".hidden", "x" * 65, "a b"])
def test_names_are_plain_folder_names(bad):
    with pytest.raises(ValueError, match="saved run name"):
        check_name(bad)


def test_save_and_load_roundtrip(tmp_path):
    src = tmp_path / "run"
    src.mkdir()
    (src / "report.json").write_text('{"score": {"value": 1}}')
    dest = save_run(src, "v1.2_x", root=tmp_path / "h")
    assert dest == tmp_path / "h" / "v1.2_x" and load_saved("v1.2_x", root=tmp_path / "h") == {"score": {"value": 1}}
