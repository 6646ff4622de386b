"""ProjectMemory: commit memories, dedup, placeholders and their binding, branch filter, GC, redaction."""
import random

import pytest

from reference.clock import LogicalClock
from reference.project import CommitInfo, ProjectError, ProjectMemory
from reference.project.commit import commit_text
from reference.project.doc_hash import doc_hash
from reference.store import MemoryStore


def sha(n: int) -> str:
    return f"{n:040x}"


def commit(n, parent, branch="main", subject=None, files=("a.py",), t=None):
    return CommitInfo(sha(n), (sha(parent),) if parent is not None else (), branch, t or 1_000_000 + n,
                      subject or f"Commit number {n}", "", tuple(files))


@pytest.fixture
def project(store):
    return ProjectMemory.for_store(store)


def test_for_store_returns_one_layer_per_store(store):
    assert ProjectMemory.for_store(store) is ProjectMemory.for_store(store)


def test_commit_memory_carries_the_seed_metadata(project, store):
    store.clock.set(1_000_500)
    w = project.record_commit(commit(2, 1, files=("db.py", "cli.py")))
    e = store.get_memory(w.memory_id)
    c = commit(2, 1, files=("db.py", "cli.py"))
    assert e.text == commit_text(c)
    assert e.metadata == {"kind": "commit", "branch": "main", "commit_sha": sha(2), "parent_sha": sha(1),
                          "git_time": 1_000_002, "session_time": 1_000_500, "files_changed": ["db.py", "cli.py"],
                          "doc_hash": doc_hash(commit_text(c)), "placeholder": False, "message_index": 0}
    assert e.created_at == 1_000_500
    assert not w.duplicate and w.bound == ()


def test_second_write_of_the_same_commit_is_skipped_and_counted(project, store):
    first = project.record_commit(commit(1, None))
    again = project.record_commit(commit(1, None))
    assert again.duplicate and again.memory_id == first.memory_id
    assert store.tracker.counts()["memories"] == 1
    s = project.stats()
    assert (s["duplicates_skipped"], s["commits"], s["memories"]) == (1, 1, 1)


def test_a_commit_seen_again_on_the_default_branch_is_promoted_and_survives_gc(project, store):
    project.switch_branch("main", default=True)
    w = project.record_commit(commit(5, 4, branch="feature"))
    again = project.record_commit(commit(5, 4, branch="main"))
    assert again.duplicate and again.promoted and again.branch == "main"
    assert store.get_memory(w.memory_id).metadata["branch"] == "main"
    assert project.gc(["main"]).deleted_memories == 0
    assert store.get_memory(w.memory_id) is not None


def test_placeholder_is_bound_to_the_commit_whose_parent_is_its_prev_commit_sha(project, store):
    project.record_commit(commit(1, None))
    p = project.create_placeholder("s1", "Asked o3 about the retry loop", tool_name="chat_with_o3")
    other = project.create_placeholder("s2", "Unrelated work", prev_commit_sha=sha(9))
    meta = store.get_memory(p.memory_id).metadata
    assert meta["placeholder"] is True and meta["prev_commit_sha"] == sha(1) and meta["session_id"] == "s1"
    assert store.get_memory(p.memory_id).text == "Session s1 (chat_with_o3):\nAsked o3 about the retry loop"
    assert project.stats()["pending_placeholders"] == 2
    w = project.record_commit(commit(2, 1, files=("retry.py",)))
    assert w.bound == (p.memory_id,)
    meta = store.get_memory(p.memory_id).metadata
    assert (meta["placeholder"], meta["commit_sha"], meta["parent_sha"], meta["files_changed"]) == \
           (False, sha(2), sha(1), ["retry.py"])
    assert meta["git_time"] == 1_000_002 and meta["prev_commit_sha"] == sha(1)
    assert store.get_memory(other.memory_id).metadata["placeholder"] is True
    assert project.stats()["pending_placeholders"] == 1
    # a later commit with the same parent binds nothing more
    assert project.record_commit(commit(3, 1, subject="Sibling")).bound == ()


def test_binding_moves_a_placeholder_to_the_branch_where_the_work_landed(project, store):
    project.record_commit(commit(1, None))
    p = project.create_placeholder("s1", "Consulted on main")
    project.switch_branch("feature", base=sha(1))
    project.record_commit(commit(2, 1, branch="feature"))
    assert store.get_memory(p.memory_id).metadata["branch"] == "feature"


def test_placeholder_in_an_empty_repository_is_bound_by_the_root_commit(project, store):
    p = project.create_placeholder("s0", "Planning the project", prev_commit_sha=None)
    assert store.get_memory(p.memory_id).metadata["prev_commit_sha"] is None
    assert project.record_commit(commit(1, None)).bound == (p.memory_id,)


def test_placeholders_count_messages_per_session_and_deduplicate(project):
    a = project.create_placeholder("s1", "first question")
    b = project.create_placeholder("s1", "second question")
    again = project.create_placeholder("s1", "first question")
    assert again.duplicate and again.memory_id == a.memory_id
    assert project.get(b.memory_id).metadata["message_index"] == 1
    assert project.stats()["session_memories"] == 2


def test_secrets_are_redacted_before_hashing_and_storage(project, store):
    key1, key2 = "AKIA" + "ABCDEFGHIJKLMNOP", "AKIA" + "QRSTUVWXYZABCDEF"
    w = project.record_commit(CommitInfo(sha(1), (), "main", 1, f"Rotate {key1}", f"old key {key1}", ("x.py",)))
    text = store.get_memory(w.memory_id).text
    assert key1 not in text and text.count("[REDACTED:aws-access-key]") == 2
    a = project.create_placeholder("s", f"used {key1} by mistake")
    b = project.create_placeholder("s", f"used {key2} by mistake")
    assert b.duplicate and b.memory_id == a.memory_id   # same content once redacted
    assert key1 not in project.get(a.memory_id).text


def test_branch_filter_returns_exactly_the_default_and_asked_branch(project, store):
    rng = random.Random(7)
    branches = ["main", "feature-a", "feature-b", "fix/c"]
    model = {}
    for i in range(40):
        b = rng.choice(branches)
        model[project.record_commit(commit(i, None, branch=b, subject=f"work item {i} on the parser")).memory_id] = b
    for b in branches:
        got = {h.id for h in project.search("parser work", top_k=100, branch=b)}
        assert got == {m for m, mb in model.items() if mb in ("main", b)}
    everything = {h.id for h in project.search("parser work", top_k=100, filtered=False)}
    assert everything == set(model)


def test_search_defaults_to_the_current_branch(project):
    on_main = project.record_commit(commit(1, None, subject="parser main")).memory_id
    project.switch_branch("topic")
    on_topic = project.record_commit(commit(2, 1, branch="topic", subject="parser topic")).memory_id
    project.switch_branch("other")
    on_other = project.record_commit(commit(3, 1, branch="other", subject="parser other")).memory_id
    assert {h.id for h in project.search("parser", top_k=10)} == {on_main, on_other}
    project.switch_branch("topic")
    assert {h.id for h in project.search("parser", top_k=10)} == {on_main, on_topic}
    assert project.branch_filter() == {"branch": ["main", "topic"]}


def test_gc_deletes_memories_of_dead_branches_only(project, store):
    keep, doomed = set(), set()
    keep.add(project.record_commit(commit(1, None)).memory_id)
    project.switch_branch("alive", base=sha(1))
    keep.add(project.record_commit(commit(2, 1, branch="alive")).memory_id)
    project.switch_branch("dead", base=sha(1))
    doomed.add(project.record_commit(commit(3, 1, branch="dead")).memory_id)
    doomed.add(project.create_placeholder("s", "work on dead").memory_id)
    r = project.gc(["alive"])
    assert r.deleted_memories == 2 and r.deleted_branches == ("dead",)
    assert all(store.get_memory(m) is None for m in doomed) and all(store.get_memory(m) for m in keep)
    assert project.current_branch == "main" and project.branches() == ["alive", "main"]
    s = project.stats()
    assert (s["deleted_branches"], s["memories"], s["commits"]) == (1, 2, 2) and s["last_gc"] is not None
    # the deleted commit's hash is forgotten: recording it again stores it again
    assert not project.record_commit(commit(3, 1, branch="dead")).duplicate


def test_bad_arguments_raise_and_store_nothing(project, store):
    with pytest.raises(ProjectError):
        project.switch_branch("bad branch")
    with pytest.raises(ProjectError):
        project.create_placeholder("", "x")
    with pytest.raises(ProjectError):
        project.create_placeholder("s", "x", prev_commit_sha="nothex")
    with pytest.raises(ProjectError):
        project.gc("main")
    assert store.tracker.counts()["memories"] == 0 and project.branches() == []


def test_same_operations_give_the_same_ids_and_rows(tmp_path):
    def run(path):
        s = MemoryStore.open(path, clock=LogicalClock(5.0))
        p = ProjectMemory.for_store(s)
        ids = [p.record_commit(commit(1, None)).memory_id, p.create_placeholder("s", "q").memory_id,
               p.record_commit(commit(2, 1)).memory_id]
        rows = s.tracker.conn().execute("SELECT * FROM project_docs ORDER BY memory_id").fetchall()
        s.close()
        return ids, rows, (path / "blob.dat").read_bytes()
    assert run(tmp_path / "a") == run(tmp_path / "b")


def test_state_survives_reopening(tmp_path):
    s = MemoryStore.open(tmp_path, clock=LogicalClock(1.0))
    p = ProjectMemory.for_store(s)
    p.switch_branch("trunk", default=True)
    p.switch_branch("feature")
    first = p.record_commit(commit(1, None, branch="feature")).memory_id
    s.close()
    s = MemoryStore.open(tmp_path, clock=LogicalClock(2.0))
    p = ProjectMemory.for_store(s)
    assert (p.default_branch, p.current_branch) == ("trunk", "feature")
    again = p.record_commit(commit(1, None, branch="feature"))
    assert again.duplicate and again.memory_id == first
    s.close()
