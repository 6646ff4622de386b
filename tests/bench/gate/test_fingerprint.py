"""Where a report was made: the environment section and the machine comparison the gate relies on."""
import json
import re

from bench.report import Report
from bench.report.fingerprint import environment, git_commit, machine_differences

M = {"cpu_model": "AMD EPYC", "cpu_count": 2, "arch": "x86_64", "system": "Linux", "hostname": "vm",
     "python": "CPython 3.11.7"}


def test_environment_records_machine_commit_date_and_packages():
    env = environment()
    assert set(env["machine"]) == set(M) and env["machine"]["cpu_count"] >= 1
    assert env["commit"] == "unknown" or re.fullmatch(r"[0-9a-f]{40}(\+dirty)?", env["commit"])
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", env["date"])
    assert "numpy" in env["packages"] and env["python"].count(".") == 2


def test_a_new_report_carries_it_and_it_survives_a_round_trip(tmp_path):
    r = Report("reference", [], {})
    r.save(tmp_path)
    saved = json.loads((tmp_path / "report.json").read_text())["environment"]
    assert saved["machine"] == environment()["machine"]
    assert Report.load(tmp_path).environment["machine"] == saved["machine"]


def test_commit_is_unknown_outside_a_git_checkout(tmp_path):
    assert git_commit(tmp_path) == "unknown"


def test_machine_differences_name_each_field_that_differs():
    assert machine_differences({"machine": M}, {"machine": dict(M)}) == []
    other = {**M, "cpu_count": 8, "cpu_model": "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz with a long name"}
    assert machine_differences({"machine": M}, {"machine": other}) == [
        "cpu_model AMD EPYC vs Intel(R) Xeon(R) Platinum 8375C CPU @...", "cpu_count 2 vs 8"]
    assert machine_differences({"machine": M}, {}) == ["no machine fingerprint in the baseline"]
    assert machine_differences({}, {}) == ["no machine fingerprint in the report and the baseline"]


def test_an_installed_copy_inside_another_repository_does_not_report_that_repositorys_commit(tmp_path):
    import subprocess
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@x",
           "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, env=env)
    subprocess.run(["git", "-C", str(tmp_path), "commit", "-q", "--allow-empty", "-m", "x"], check=True, env=env)
    site = tmp_path / "venv" / "site-packages"
    site.mkdir(parents=True)
    assert git_commit(tmp_path) not in ("unknown", "")       # the checkout root itself: its HEAD
    assert git_commit(site) == "unknown"
