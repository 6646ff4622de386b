"""Pattern steps: detection against re, redaction, and unsupported on a backend without patterns."""
import pytest

from bench.run import run_suite
from bench.scenario.suites import resolve


@pytest.fixture(scope="module")
def scenario():
    (sc,) = resolve(["patterns"])
    return sc


def test_reference_detects_every_planted_smell_and_redacts_every_secret(scenario, tmp_path):
    s = run_suite("reference", [scenario], tmp_path).scenarios["patterns"]
    assert s["checks"]["passed"] == s["checks"]["total"] > 25, s["problems"][:3]
    assert s["metrics"]["pattern_scan_memories.recall"] == 1.0
    assert s["metrics"]["pattern_scan_memories.precision"] == 1.0
    assert s["metrics"]["redaction.recall"] == 1.0
    assert all(t["met"] for t in s["targets"])


def test_backend_without_patterns_reports_unsupported(scenario, tmp_path):
    s = run_suite("fts-baseline", [scenario], tmp_path).scenarios["patterns"]
    names = {"pattern_load", "pattern_list", "pattern_scan", "pattern_scan_memories", "jit_index_file"}
    assert s["steps"]["unsupported"] >= sum(1 for st in scenario.steps if st.name in names)
    assert s["steps"]["error"] == 0
