"""File localisation: the documented rank fusion (checked on fixed inputs by hand) and on a real store."""
from types import SimpleNamespace

import pytest

from reference.memories.record import SearchHit
from reference.project import CommitInfo, ProjectError, ProjectMemory, index_snapshot, locate_files
from reference.tuning import SEED_DEFAULTS


class FakeProject:
    def __init__(self, code_paths, memory_files):
        self.code_paths, self.memory_files = code_paths, memory_files
        # at the seeds' values the history evidence is the cosine-ranked memories' files (locate.py)
        self.store = SimpleNamespace(code_search=self.code_search, extensions={"tuning": SEED_DEFAULTS})

    def code_search(self, query, top_k):
        return [SearchHit(f"chunk:{p}:{i}", "chunk", 1.0 - i / 10, None, {"path": p})
                for i, p in enumerate(self.code_paths)][:top_k]

    def search(self, query, top_k, branch=None):
        return [SearchHit(f"mem:{i:08x}", "memory", 1.0, SimpleNamespace(metadata={"files_changed": files}))
                for i, files in enumerate(self.memory_files)][:top_k]


def test_fusion_matches_hand_computed_scores():
    fake = FakeProject(["a.py", "a.py", "b.py"], [["b.py", "c.py", "d.py", "e.py"], ["c.py"]])
    hits = locate_files(fake, "q", top_k=10)
    # a: code rank 0 -> 1/60; b: code rank 1 -> 1/61, plus memory rank 0 over 4 files -> 1/60/2
    # c: 1/60/2 + memory rank 1 over 1 file -> 1/61; d, e: 1/60/2
    expected = {"a.py": 1 / 60, "b.py": 1 / 61 + 1 / 120, "c.py": 1 / 120 + 1 / 61, "d.py": 1 / 120, "e.py": 1 / 120}
    assert [h.id for h in hits] == ["file:b.py", "file:c.py", "file:a.py", "file:d.py", "file:e.py"]
    for h in hits:
        assert h.score == pytest.approx(expected[h.meta["path"]])
    assert [h.id for h in locate_files(fake, "q", top_k=2)] == ["file:b.py", "file:c.py"]


def test_locate_on_a_store_finds_code_and_history(store):
    project = ProjectMemory.for_store(store)
    index_snapshot(store, [
        {"path": "csv_reader.py", "text": "def read_csv_rows(path):\n    '''Parse CSV rows with headers.'''\n"},
        {"path": "fts.py", "text": "def enable_fts(table):\n    '''Full-text search index.'''\n"}])
    project.record_commit(CommitInfo("a" * 40, (), "main", 1, "Speed up the full-text search index", "",
                                     ("fts.py", "docs/fts.rst")))
    hits = locate_files(project, "full-text search index is slow", top_k=3)
    assert hits[0].id == "file:fts.py"
    assert "file:docs/fts.rst" in [h.id for h in hits]   # known only from the commit history


def test_locate_ranks_history_by_the_lexical_files_within_the_branch_filter(store):
    project = ProjectMemory.for_store(store)
    project.record_commit(CommitInfo("a" * 40, (), "main", 1, "Add the csv export command", "",
                                     ("sqlite_utils/cli.py", "docs/cli.rst")))
    project.record_commit(CommitInfo("b" * 40, ("a" * 40,), "main", 2, "Fix table.insert_all on m2m", "",
                                     ("sqlite_utils/db.py",)))
    project.record_commit(CommitInfo("c" * 40, (), "feature", 3, "csv export on a branch", "",
                                     ("sqlite_utils/branch_only.py",)))
    hits = [h.meta["path"] for h in locate_files(project, "csv export fails", top_k=5, branch="main")]
    assert set(hits[:2]) == {"sqlite_utils/cli.py", "docs/cli.rst"} and "sqlite_utils/branch_only.py" not in hits


def test_snapshot_indexes_hidden_paths_and_refuses_bad_ones(store):
    r = index_snapshot(store, [{"path": ".github/workflows/test.yml", "text": "on: push\n"},
                               {"path": "pkg/mod.py", "text": "def f():\n    return 1\n"}])
    assert r.files_indexed == 2 and r.symbols == 1
    rows = store.tracker.conn().execute("SELECT path FROM files ORDER BY path").fetchall()
    assert [p for (p,) in rows] == [".github/workflows/test.yml", "pkg/mod.py"]
    for bad in ({"path": "../x.py", "text": ""}, {"path": "/abs.py", "text": ""}, {"path": "a//b.py", "text": ""},
                {"path": "x.py"}, "x.py"):
        with pytest.raises(ProjectError, match="snapshot record 1"):
            index_snapshot(store, [{"path": "ok.py", "text": "x = 1\n"}, bad])
    with pytest.raises(ProjectError, match="twice"):
        index_snapshot(store, [{"path": "ok.py", "text": ""}, {"path": "ok.py", "text": ""}])
    assert store.tracker.counts()["files"] == 2   # nothing of a refused batch was indexed


def test_locate_names_history_files_as_the_commits_spell_them(store):
    """The lexical file ranking names a file by its lowercased entity term (`README.md` -> `readme.md`,
    `.github/...` -> `github/...`): no file key the truth knows. locate returns the commits' own spelling."""
    project = ProjectMemory.for_store(store)
    project.record_commit(CommitInfo("a" * 40, (), "main", 1, "Document the csv export in the readme", "",
                                     ("README.md", ".github/workflows/Docs.yml")))
    project.record_commit(CommitInfo("b" * 40, ("a" * 40,), "main", 2, "Fix table.insert_all on m2m", "",
                                     ("sqlite_utils/db.py",)))
    paths = [h.meta["path"] for h in locate_files(project, "csv export readme docs", top_k=5)]
    assert {"README.md", ".github/workflows/Docs.yml"} <= set(paths)
    assert not {"readme.md", "github/workflows/docs.yml"} & set(paths)


def test_locate_reads_the_memory_scores_cosine_part_at_the_files_vector_weight(store):
    """`LexicalLayer.locate` scores the memories with `FileParams.vector_weight` for their cosine part (the
    store's nearest memories), exactly as `files.file_scores` over `hybrid_scores` with that vector part."""
    from reference.lexical.files import file_scores
    from reference.lexical.layer import LexicalLayer
    from reference.lexical.params import FILES_TUNED, TUNED
    from reference.lexical.ranking import hybrid_scores
    project = ProjectMemory.for_store(store)
    for i, (msg, files) in enumerate([("Add the csv export command", ("cli.py", "docs/cli.rst")),
                                      ("Exporting rows as csv is slow", ("db.py",)),
                                      ("Fix table.insert_all on m2m", ("db.py", "tests/test_m2m.py"))]):
        project.record_commit(CommitInfo(f"{i + 1:040x}", (), "main", i + 1, msg, "", files))
    layer, query = LexicalLayer.for_store(store), "csv exports are slow"
    without = layer.locate(query, TUNED, FILES_TUNED.with_(vector_weight=0.0), 10)
    with_cos = layer.locate(query, TUNED, FILES_TUNED.with_(vector_weight=1.0), 10)
    assert with_cos != without
    scores = hybrid_scores(layer.index, query, TUNED.with_(vector_weight=1.0), layer.vector(query, None))
    expect = file_scores(layer.index, layer.files, query, scores, FILES_TUNED.with_(vector_weight=1.0),
                         layer._files_of.__getitem__)
    assert with_cos == expect
