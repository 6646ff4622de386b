"""bench.report.readme_figures: keeping a `compare` run as the README's side-by-side run."""
from __future__ import annotations

import json

import pytest

from bench.report.readme_figures import COMPARISON, SIDE_BY_SIDE, keep_side_by_side


def _compare_dir(tmp_path, with_tests: bool):
    run = tmp_path / "run"
    (run / "peer").mkdir(parents=True)
    (run / "side_by_side.json").write_text(json.dumps({
        "command": "codemem-bench compare ...", "commit": "abc1234", "date": "2026-11-29", "machine": "m",
        "minutes": 1.0, "rows": [{"backend": "peer", "ndcg@10": {"smoke": 0.0, "knowledge": 0.5}}]}))
    (run / "peer" / "report.json").write_text(json.dumps({"scenarios": {
        "smoke": {"quality": {"ndcg@10": 0.0}, "per_query": [{"unsupported": True}]},
        "knowledge": {"quality": {"ndcg@10": 0.5}, "per_query": [{"unsupported": False}]}}}))
    if with_tests:
        (run / "comparison.md").write_text("# paired tests of this run\n")
    return run


def test_the_run_and_its_paired_tests_are_kept_together(tmp_path):
    root = tmp_path / "repo"
    dest = keep_side_by_side(_compare_dir(tmp_path, True), root)
    doc = json.loads(dest.read_text())
    assert dest == root / SIDE_BY_SIDE and doc["run"] == str(tmp_path / "run")
    assert doc["rows"][0]["ndcg@10"] == {"smoke": None, "knowledge": 0.5}    # a scenario it could not run: None
    assert (root / COMPARISON).read_text() == "# paired tests of this run\n"


def test_a_run_without_paired_tests_leaves_no_stale_copy_of_another_runs(tmp_path):
    root = tmp_path / "repo"
    keep_side_by_side(_compare_dir(tmp_path, True), root)
    (tmp_path / "run" / "comparison.md").unlink()
    keep_side_by_side(tmp_path / "run", root)
    assert not (root / COMPARISON).exists()


def test_a_folder_compare_did_not_write_is_refused(tmp_path):
    (tmp_path / "side_by_side.json").write_text(json.dumps({"rows": []}))
    with pytest.raises(ValueError, match="not written by `codemem-bench compare`"):
        keep_side_by_side(tmp_path, tmp_path / "repo")
