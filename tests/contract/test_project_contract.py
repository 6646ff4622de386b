"""Contract of `project_memory` (seed 002): commits and sessions as memories, branch-filtered search, dedup, GC.

What the project scenarios rely on:
- `project_switch_branch(name, base, default)` makes `name` current (and the default branch with
  `default=True`); `project_record_commit` stores the commit's memory on the current (or named)
  branch: `project_get` gives {id, text, kind: "commit", branch, commit_sha, parent_sha,
  files_changed, ...}; a bad sha is refused with ValueError naming it.
- Branch filter: from a branch, `project_search` sees that branch's and the default branch's
  memories; from the default branch it does not see another branch's; `branch=` asks for another
  branch's view; `filtered=False` sees every branch.
- Dedup by document hash: recording the same commit again, or the same session placeholder again,
  stores nothing new: it returns the stored id with `duplicate: True`, and `project_stats` counts it in
  `duplicates_skipped`.
- A placeholder is bound by the next commit on its head: the commit's `bound` lists it, and its
  memory then carries that commit (`kind: "session"`, `commit_sha`, `placeholder: False`).
- `project_gc(live)` deletes exactly the memories of the branches not in `live` (the default always
  lives) and reports them; they are gone from reads and searches.
"""
import pytest

from bench.backends import Capability as C

CAPABILITY = C.PROJECT_MEMORY


def sha(tag: str, n: int) -> str:
    return (tag.encode().hex() + f"{n:x}").rjust(40, "0")[-40:]


@pytest.fixture
def main(backend):
    backend.project_switch_branch("main", None, True)
    return backend


def _ids(hits):
    return [h.id for h in hits]


def test_a_commit_is_a_memory_with_its_metadata(main, backend_clock):
    backend_clock.advance(60)
    out = main.project_record_commit(sha("a", 1), None, ["src/db/pool.py"],
                                     "Add connection pooling to the database layer\n\nPool size 10.")
    assert out["duplicate"] is False and out["branch"] == "main"
    record = main.project_get(out["memory_id"])
    assert record["kind"] == "commit" and record["branch"] == "main" and record["commit_sha"] == sha("a", 1)
    assert record["files_changed"] == ["src/db/pool.py"] and "connection pooling" in record["text"]
    assert main.project_get("mem:00000000") is None
    with pytest.raises(ValueError, match="xyz"):
        main.project_record_commit("xyz", None, [], "not a sha")


def test_search_is_filtered_to_the_branch_and_the_default(main, backend_clock):
    backend_clock.advance(60)
    base = main.project_record_commit(sha("b", 1), None, ["src/report.py"], "Report totals per quarter")
    main.project_switch_branch("feature/kcsv-export", sha("b", 1))
    backend_clock.advance(60)
    feat = main.project_record_commit(sha("b", 2), sha("b", 1), ["src/kcsv.py"], "Kcsv export of quarterly reports")
    query = "kcsv export of quarterly reports"
    on_branch = _ids(main.project_search(query, 10))
    assert feat["memory_id"] in on_branch and base["memory_id"] in on_branch
    main.project_switch_branch("main")
    on_main = _ids(main.project_search(query, 10))
    assert feat["memory_id"] not in on_main and base["memory_id"] in on_main
    assert feat["memory_id"] in _ids(main.project_search(query, 10, "feature/kcsv-export"))
    assert feat["memory_id"] in _ids(main.project_search(query, 10, None, False))


def test_the_same_commit_or_session_again_is_a_duplicate(main, backend_clock):
    before = main.project_stats()["duplicates_skipped"]
    backend_clock.advance(60)
    first = main.project_record_commit(sha("c", 1), None, ["src/cache.py"], "Cache compiled templates")
    again = main.project_record_commit(sha("c", 1), None, ["src/cache.py"], "Cache compiled templates", "main")
    assert (first["duplicate"], again["duplicate"], again["memory_id"]) == (False, True, first["memory_id"])
    p1 = main.project_placeholder("contract-s1", "Asked how to warm the template cache", "chat", sha("c", 1))
    p2 = main.project_placeholder("contract-s1", "Asked how to warm the template cache", "chat", sha("c", 1))
    assert p2["memory_id"] == p1["memory_id"] and (p1["duplicate"], p2["duplicate"]) == (False, True)
    assert main.project_stats()["duplicates_skipped"] == before + 2
    texts = [r["text"] for r in main.project_memories()]
    assert len(texts) == len(set(texts))


def test_a_placeholder_is_bound_by_the_next_commit_on_its_head(main, backend_clock):
    backend_clock.advance(60)
    main.project_record_commit(sha("d", 1), None, ["src/upload.py"], "Upload in chunks")
    ph = main.project_placeholder("contract-s2", "Asked how to retry uploads", "chat")
    assert main.project_get(ph["memory_id"])["placeholder"] is True
    backend_clock.advance(60)
    out = main.project_record_commit(sha("d", 2), sha("d", 1), ["src/upload.py"], "Retry uploads with backoff")
    assert ph["memory_id"] in out["bound"]
    record = main.project_get(ph["memory_id"])
    assert record["kind"] == "session" and record["placeholder"] is False and record["commit_sha"] == sha("d", 2)


def test_gc_deletes_exactly_the_dead_branches_memories(main, backend_clock):
    main.project_switch_branch("claude/kgc-dead", None)
    backend_clock.advance(60)
    dead = main.project_record_commit(sha("e", 1), None, ["src/tmp.py"], "Kgc scratch work")
    main.project_switch_branch("feature/kgc-live", None)
    live_commit = main.project_record_commit(sha("e", 2), None, ["src/keep.py"], "Kgc work to keep")
    main.project_switch_branch("main")
    branches = {r["id"]: r["branch"] for r in main.project_memories()}
    live = sorted({b for b in branches.values() if b != "claude/kgc-dead"})
    doomed = [i for i, b in branches.items() if b not in live and b != "main"]
    assert doomed == [dead["memory_id"]]
    out = main.project_gc(live)
    assert out["deleted_memories"] == 1 and "claude/kgc-dead" in out["deleted_branches"]
    assert main.project_get(dead["memory_id"]) is None
    assert main.project_get(live_commit["memory_id"]) is not None
    assert dead["memory_id"] not in _ids(main.project_search("kgc scratch work", 20, None, False))
