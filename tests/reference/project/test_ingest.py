"""Ingesting a data set: every commit once, at its own time on the logical clock; a second ingest adds nothing."""
import pytest

from reference.clock import LogicalClock, SystemClock
from reference.project import ProjectError, ProjectMemory, ingest_history, read_dataset
from reference.store import MemoryStore

from tests.reference.project.history_data import main_commit, sha, write_dataset


@pytest.fixture
def store(tmp_path):
    """A store whose clock starts before the data set's first commit (a clock never goes back)."""
    s = MemoryStore.open(tmp_path / "store", clock=LogicalClock(0.0))
    yield s
    s.close()


def test_ingest_writes_each_commit_at_its_time(dataset, store):
    project = ProjectMemory.for_store(store)
    seen = []
    r = ingest_history(project, read_dataset(dataset), progress=lambda i, n: seen.append((i, n)))
    assert (r.commits, r.written, r.duplicates, r.branches, r.shared) == (5, 5, 0, 4, 1)
    assert seen[-1] == (5, 5) and len(seen) == 5
    created = {e.metadata["commit_sha"]: (e.created_at, e.metadata["branch"]) for e in project.memories()}
    # order 1, 2, 3, a, b; "3" has time 150 < 200, so its clock stays at 200
    assert created == {sha("1"): (100.0, "main"), sha("2"): (200.0, "main"), sha("3"): (200.0, "main"),
                       sha("a"): (201.0, "feature/fast-insert"), sha("b"): (202.0, "feature/fast-insert")}
    assert project.get(next(m.id for m in project.memories() if m.metadata["commit_sha"] == sha("a"))) \
        .metadata["synthetic"] is True
    assert set(project.branches()) == {"main", "feature/fast-insert", "copy", "empty"}
    assert project.head("empty") == sha("3") and project.head("feature/fast-insert") == sha("b")


def test_second_ingest_stores_nothing_new(dataset, store):
    project = ProjectMemory.for_store(store)
    ingest_history(project, read_dataset(dataset))
    before = store.tracker.counts()["memories"]
    r = ingest_history(project, read_dataset(dataset))
    assert (r.written, r.duplicates) == (0, 5) and store.tracker.counts()["memories"] == before


def test_ingest_needs_a_logical_clock(dataset, tmp_path):
    store = MemoryStore.open(tmp_path / "s", clock=SystemClock())
    try:
        with pytest.raises(ProjectError, match="LogicalClock"):
            ingest_history(ProjectMemory.for_store(store), read_dataset(dataset))
    finally:
        store.close()


def test_time_order_puts_the_earliest_ready_commit_first(tmp_path):
    # two branches from "1": x (t=300) and y (t=250); main "2" at t=400 -> 1, y, x, 2
    commits = [main_commit("1", None, 100, "Init", ["a"]), main_commit("2", "1", 400, "Two", ["a"])]
    ds = write_dataset(tmp_path / "ds", commits, [])
    h = read_dataset(ds)
    from reference.project.commit import CommitInfo
    h.commits += [CommitInfo(sha("c"), (sha("1"),), "x", 300, "x"), CommitInfo(sha("d"), (sha("1"),), "y", 250, "y")]
    assert [c.sha for c in h.in_time_order()] == [sha("1"), sha("d"), sha("c"), sha("2")]


def test_a_branch_without_merge_base_ingests_with_no_base(tmp_path, store):
    ds = write_dataset(tmp_path / "x", [main_commit("1", None, 100, "Init", ["a.py"])],
                       [{"name": "gh-pages", "tip": sha("e"), "merge_base": None, "commits": [sha("e")]}])
    project = ProjectMemory.for_store(store)
    r = ingest_history(project, read_dataset(ds))
    assert (r.commits, r.written, r.branches) == (2, 2, 2)
    assert set(project.branches()) == {"main", "gh-pages"} and project.head("gh-pages") == sha("e")


@pytest.mark.parametrize("name", ["sqlite-utils"])
def test_batched_ingest_stores_what_commit_by_commit_ingest_stores(tmp_path, name):
    """Runs of new commits go in one batch write; rows, FTS terms and file bytes match one write per commit."""
    from pathlib import Path
    history = read_dataset(Path(__file__).resolve().parents[3] / "scenarios" / "data" / name)
    history.commits = history.commits[:300]
    keep = {c.sha for c in history.commits}
    history.branches = [b for b in history.branches if b.tip in keep]
    states = []
    for batch in (False, True):
        s = MemoryStore.open(tmp_path / str(batch), clock=LogicalClock(0.0))
        project = ProjectMemory.for_store(s)
        r = ingest_history(project, history, batch=batch)
        conn = s.tracker.conn()
        conn.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, memories_fts, instance)")
        rows = [x for x in conn.iterdump() if "_fts_data" not in x and "_fts_idx" not in x]
        vocab = conn.execute("SELECT * FROM temp.v ORDER BY 1, 2, 3, 4").fetchall()
        s.close()
        files = {f: (tmp_path / str(batch) / f).read_bytes() for f in ("blob.dat", "vectors.f32", "vectors.keys")}
        states.append((r.to_dict(), rows, vocab, files))
    assert states[0][0]["written"] > 250
    assert states[0] == states[1]
