"""Tools of the later seeds' layers: oracle_* (001), memory-lane_* (004), project memory (002)."""
from __future__ import annotations

from tests.reference.mcp_server.conftest import START


def sha(n: int) -> str:
    return f"{n:040x}"


def test_lane_store_find_feedback_and_inject(mcp):
    fix = mcp.call("memory-lane_store", information="Wrong: never refresh tokens on the UI thread",
                   type="correction", entities=["feature:auth"])
    chose = mcp.call("memory-lane_store", information="We decided to bill monthly, not weekly",
                     paths=["src/features/billing/plan.ts"])
    assert fix["metadata"]["memory_type"] == "correction" and fix["metadata"]["entity_slugs"] == ["feature:auth"]
    assert chose["metadata"]["memory_type"] == "decision"                       # classified from "decided"
    assert chose["metadata"]["entity_slugs"] == ["feature:billing"]              # from the path
    found = mcp.call("memory-lane_find", query="refresh tokens", entities=["feature:auth"])
    assert [r["id"] for r in found["results"]] == [fix["id"]] and found["clarification_required"] is False
    state = mcp.call("memory-lane_feedback", memory_id=fix["id"], signal="helpful")
    assert (state["helpful"], state["harmful"]) == (1, 0)
    first = mcp.call("memory-lane_inject", query="token refresh on the UI thread", session_id="s1", limit=1)
    again = mcp.call("memory-lane_inject", query="token refresh on the UI thread", session_id="s1", limit=1)
    assert first["memory_ids"] == [fix["id"]] and fix["id"] not in again["memory_ids"]
    assert fix["id"] in first["block"]
    assert "signal" in mcp.error("memory-lane_feedback", memory_id=fix["id"], signal="meh")


def test_oracle_learn_entities_timeline_and_search(mcp):
    learned = mcp.call("oracle_learn", pattern="Retry uploads with jitter", concepts=["Backoff", "uploads"],
                       source="Conversation 7")
    mcp.call("_harness_advance_clock", seconds=3600.0)
    note = mcp.call("memory_write_structured", text="The bug is in src/auth/token.py, fixed on 2025-01-10")
    concepts = {e["id"] for e in mcp.call("oracle_entities", type="concept")}
    assert {"concept:backoff", "concept:uploads"} <= concepts
    mine = {e["id"] for e in mcp.call("oracle_entities", documentId=note["id"])}
    assert {"file:src/auth/token.py", "time:2025-01-10"} <= mine
    timeline = mcp.call("oracle_timeline")
    assert [(t["id"], t["recorded_date"]) for t in timeline if t["id"] == learned["id"]] == [
        (learned["id"], "2025-01-15T10:10:00Z")]
    window = mcp.call("oracle_timeline", after=START + 1800)
    assert learned["id"] not in [t["id"] for t in window]
    hits = mcp.call("oracle_search", query="retry uploads jitter", limit=5)
    assert hits[0]["id"] == learned["id"]
    assert mcp.call("oracle_relationships", documentId=learned["id"], type="updates") == []
    assert "documentId" in mcp.error("oracle_relationships", documentId="nope")


def test_project_commits_branches_placeholders_search_and_gc(mcp):
    mcp.call("project_switch_branch", name="main", default=True)
    c1 = mcp.call("project_record_commit", sha=sha(1), message="Add CSV import", files=["csv.py"])
    mcp.call("project_switch_branch", name="feature-fts", base=sha(1))
    p1 = mcp.call("project_placeholder", summary="Asked how to rank full-text search", session_id="s1")
    f1 = mcp.call("project_record_commit", sha=sha(2), parent=sha(1), message="Add full-text search",
                  files=["fts.py"])
    assert f1["bound"] == [p1["memory_id"]] and f1["branch"] == "feature-fts"
    bound = mcp.call("project_memory_get", memory_id=p1["memory_id"])
    assert (bound["commit_sha"], bound["branch"], bound["session_id"]) == (sha(2), "feature-fts", "s1")
    mcp.call("project_switch_branch", name="main")
    on_main = {h["id"] for h in mcp.call("project_memory_search", query="full-text search")}
    assert on_main == {c1["memory_id"]}
    everywhere = {h["id"] for h in mcp.call("project_memory_search", query="full-text search", filtered=False)}
    assert everywhere == {c1["memory_id"], f1["memory_id"], p1["memory_id"]}
    assert mcp.call("project_record_commit", sha=sha(1), message="Add CSV import", files=["csv.py"])["duplicate"]
    assert mcp.call("project_gc", live_branches=[]) == {"deleted_memories": 2, "deleted_branches": ["feature-fts"]}
    stats = mcp.call("project_stats")
    assert (stats["memories"], stats["duplicates_skipped"]) == (1, 1)
    assert [m["id"] for m in mcp.call("project_memory_list")] == [c1["memory_id"]]
