"""Project memory steps replayed against the reference backend, and reported unsupported elsewhere."""
import json
from pathlib import Path

import pytest

from bench.run import run_suite
from bench.scenario.loader import load_scenario

ROOT = Path(__file__).resolve().parents[3]
T0 = 1_700_000_000


def sha(n: int) -> str:
    return f"{n:040x}"


def steps() -> list[dict]:
    def commit(n, parent, message, files, alias=None, **extra):
        step = {"directive": "commit", "sha": sha(n), "parent": sha(parent) if parent else None, "message": message,
                "files": files, "time": T0 + n * 60, **extra}
        if alias:
            step["as"] = alias
        return step

    search = "project_memory_search"
    return [
        {"directive": "session", "session_id": "mini"},
        {"directive": "branch", "name": "main", "default": True},
        commit(1, None, "Add CSV import", ["csv.py"], "c1"),
        commit(2, 1, "Add JSON export", ["json.py"], "c2"),
        {"directive": "branch", "name": "feature-fts", "base": sha(2)},
        {"tool": "project_placeholder", "as": "p1", "args": {"summary": "Asked o3 how to rank full-text search"}},
        commit(3, 2, "Add full-text search over imported rows", ["fts.py"], "f1"),
        {"tool": "project_memory_get", "args": {"memory_id": "$p1"},
         "expect": {"fields": {"placeholder": False, "commit_sha": sha(3), "prev_commit_sha": sha(2),
                               "branch": "feature-fts", "session_id": "mini"}}},
        {"directive": "branch", "name": "feature-json", "base": sha(2)},
        commit(4, 2, "JSON export with an indent option", ["json.py"], "j1"),
        {"tool": search, "args": {"query": "full-text search ranking"}, "expect": {"excludes": ["f1", "p1"]}},
        {"tool": search, "args": {"query": "JSON export indent"}, "id": "q-json", "expect": {"relevant": ["j1", "c2"]}},
        {"tool": search, "args": {"query": "full-text search ranking", "filtered": False},
         "expect": {"contains": ["f1", "p1"], "count": 5}},
        {"directive": "branch", "name": "feature-fts"},
        {"tool": search, "args": {"query": "full-text search"}, "id": "q-fts", "expect": {"relevant": ["f1", "p1"]}},
        {"tool": search, "args": {"query": "JSON export", "branch": "feature-json"}, "expect": {"contains": ["j1"]}},
        commit(3, 2, "Add full-text search over imported rows", ["fts.py"], expect={"fields": {"duplicate": True}}),
        {"tool": "project_placeholder", "args": {"summary": "Asked o3 how to rank full-text search"},
         "expect": {"fields": {"duplicate": True}}},
        {"tool": "project_gc", "args": {"live_branches": ["feature-json"]},
         "expect": {"equals": {"deleted_memories": 2, "deleted_branches": ["feature-fts"]}}},
        {"tool": "project_stats", "args": {}, "expect": {"fields": {
            "current_branch": "main", "branches": 2, "commits": 3, "memories": 3, "duplicates_skipped": 2,
            "pending_placeholders": 0}}},
        {"tool": "project_audit", "args": {}, "expect": {"fields": {"memories": 3, "duplicates": 0, "commits": 4}}},
    ]


def write_scenario(folder: Path) -> Path:
    header = {"scenario": "project-mini", "format": 1, "start_time": T0,
              "targets": [{"metric": "branch_precision", "op": ">", "value": 0.95},
                          {"metric": "duplicate_rate", "op": "<", "value": 0.05,
                           "needs": ["commit", "project_placeholder"]}]}
    path = folder / "project-mini.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in [header, *steps()]))
    return path


def test_reference_replays_the_project_steps(tmp_path):
    scenario = load_scenario(write_scenario(tmp_path))
    s = run_suite("reference", [scenario], tmp_path / "out").scenarios["project-mini"]
    assert s["steps"]["error"] == 0 and s["steps"]["unsupported"] == 0, s["problems"]
    assert s["checks"]["rate"] == 1.0, s["problems"]
    # filtered searches: every retrieved memory is on the asked branch or main
    assert s["metrics"]["branch_precision"] == 1.0
    # the one unfiltered search on feature-json sees all 5 memories; c1, c2, j1 are allowed: 3/5
    assert s["metrics"]["branch_precision_unfiltered"] == pytest.approx(0.6)
    assert s["metrics"]["duplicate_rate"] == 0.0
    assert s["metrics"]["storage_bytes_per_1000_commits"] > 0
    assert all(t["met"] for t in s["targets"])
    assert s["quality"]["recall@10"] == 1.0
    # the census reads back c1, c2, j1; f1 and p1 were deleted by the GC of feature-fts, not lost
    assert s["census"] == {"acknowledged": 3, "verified": 3, "lost": 0, "unverifiable": 0}


def test_backend_without_the_capability_reports_every_project_step_unsupported(tmp_path):
    scenario = load_scenario(write_scenario(tmp_path))
    s = run_suite("fts-baseline", [scenario], tmp_path / "out").scenarios["project-mini"]
    project_steps = sum(1 for st in scenario.steps if st.kind == "tool")  # directives are not steps
    assert s["steps"]["unsupported"] == project_steps and s["steps"]["error"] == 0
    assert s["quality"]["ndcg@10"] == 0.0 and not any(t["met"] for t in s["targets"])


def test_commit_directive_rejects_unknown_fields(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps({"scenario": "bad", "format": 1}) + "\n" +
                    json.dumps({"directive": "commit", "sha": sha(1), "message": "m", "author": "x"}) + "\n")
    with pytest.raises(ValueError, match=r"bad\.jsonl:2: args\.author"):
        load_scenario(path)


def test_committed_scenarios_load():
    for data in ("sqlite-utils", "httpx", "attrs"):
        for task in ("branches", "dedup", "files"):
            sc = load_scenario(ROOT / "scenarios" / f"{data}-{task}.jsonl", ROOT / "oracle_data")
            assert sc.steps and sc.header.source.startswith("github.com/") and f"scenarios/data/{data}" in sc.header.source
