"""The branch filter's fast path (branch_search.py) gives exactly the store's filtered search."""
from __future__ import annotations

import random

import pytest

from reference.project import CommitInfo, ProjectMemory
from reference.project import branch_search as bs

WORDS = ("token refresh race cache retry index query schema migrate column table insert upsert "
         "transform lookup vacuum fts trigger view json csv").split()


def sha(n: int) -> str:
    return f"{n:040x}"


@pytest.fixture
def project(store):
    """200 commits on main and 12 branches; some texts repeated on several branches (score ties)."""
    p = ProjectMemory.for_store(store)
    p.switch_branch("main", default=True)
    rnd = random.Random(11)
    branches = [f"feature-{i}" for i in range(12)]
    for n in range(1, 201):
        branch = "main" if rnd.random() < 0.6 else rnd.choice(branches)
        words = " ".join(rnd.sample(WORDS, 4))
        subject = f"Fix {words}" if n % 7 else f"Fix {WORDS[n % 5]} {WORDS[n % 3]}"   # repeated subjects
        body = "" if n % 7 == 0 else f"Body {n}"
        store.clock.advance(10)
        p.record_commit(CommitInfo(sha(n), (sha(n - 1),), branch, 1_000_000 + n, subject, body, (f"f{n % 9}.py",)))
    return p


def exact(project, query, top_k, branch):
    return [(h.id, h.score) for h in bs.filtered(project.store, query, top_k, project.branch_filter(branch)["branch"])]


def fast(project, query, top_k, branch):
    """The fast path itself (`ProjectMemory.search` ranks with ranking.py since; test_ranking.py)."""
    if not isinstance(query, str) or not query.strip() or top_k > 1000:
        return exact(project, query, top_k, branch)
    return [(h.id, h.score) for h in bs.branch_search(project.store, query, top_k, project.branch_filter(branch)["branch"])]


@pytest.mark.parametrize("top_k", [1, 3, 10, 25])
def test_same_hits_in_the_same_order_as_the_store_filter(project, top_k):
    rnd = random.Random(top_k)
    for _ in range(25):
        query = " ".join(rnd.sample(WORDS, 2))
        branch = rnd.choice([None, "main", "feature-3", "feature-7", "no-such-branch"])
        assert fast(project, query, top_k, branch) == exact(project, query, top_k, branch)


def test_ties_across_branches_are_broken_by_id(project, store):
    for branch in ("feature-1", "main", "feature-5", "main", "feature-1", "feature-8") * 2:
        store.write_memory("Vacuum the fts index after a bulk upsert", metadata={"branch": branch})
    for branch in ("feature-1", "feature-5", "feature-8"):
        for k in (1, 2, 3, 5):
            got = fast(project, "Vacuum the fts index after a bulk upsert", k, branch)
            assert len({s for _, s in got[:2]}) == 1, "the planted texts must tie"
            assert got == exact(project, "Vacuum the fts index after a bulk upsert", k, branch)
    for n in range(1, 10):
        query = f"Fix {WORDS[n % 5]} {WORDS[n % 3]}"
        for branch in ("feature-1", "feature-5"):
            assert fast(project, query, 4, branch) == exact(project, query, 4, branch)


def test_widening_and_fallback_give_the_exact_answer(project, monkeypatch):
    """A tiny prefix forces the widen step, then the fallback; answers never change."""
    monkeypatch.setattr(bs, "MIN_FETCH", 1)
    monkeypatch.setattr(bs, "FIRST_FETCH", 1)
    calls = []
    real = bs.filtered
    monkeypatch.setattr(bs, "filtered", lambda *a: calls.append(a) or real(*a))
    for query in ("token refresh", "vacuum trigger", "json csv"):
        for branch in ("feature-2", "feature-9"):
            assert fast(project, query, 10, branch) == exact(project, query, 10, branch)
    assert calls, "a one-hit prefix must have needed the fallback at least once"


def test_a_store_smaller_than_the_prefix_is_answered_without_fallback(store, monkeypatch):
    p = ProjectMemory.for_store(store)
    p.switch_branch("main", default=True)
    for n in range(1, 6):
        p.record_commit(CommitInfo(sha(n), (), "main" if n % 2 else "side", 1_000_000 + n, f"Fix cache {n}", "", ()))
    monkeypatch.setattr(bs, "filtered", lambda *a: pytest.fail("fallback used"))
    assert [h.id for h in p.search("cache", 10, branch="main")] == [h.id for h in p.search("cache", 10)] \
        and len(p.search("cache", 10, branch="main")) == 3


def test_memories_written_outside_the_layer_follow_the_store_filter(project, store):
    """A memory with a `branch` in its metadata counts like the store's filter counts it."""
    store.write_memory("Fix token refresh race in the cache", metadata={"branch": "feature-4"})
    store.write_memory("Fix token refresh race in the cache again", metadata={"branch": ["feature-4", "x"]})
    store.write_memory("Fix token refresh race, no branch at all")
    for branch in ("feature-4", "feature-5"):
        assert fast(project, "token refresh race", 10, branch) == exact(project, "token refresh race", 10, branch)


def test_blank_queries_and_large_k_use_the_store_filter(project):
    assert fast(project, "  ", 5, "feature-1") == exact(project, "  ", 5, "feature-1")
    assert fast(project, "cache", 0, "feature-1") == []
    assert fast(project, "cache", 2000, "feature-1") == exact(project, "cache", 2000, "feature-1")


def test_every_branch_is_read_from_one_state(store):
    """A memory moving from one allowed branch to another between two branches' reads is still found: the
    branches' keys are read in one call, not one call each with a write landing between them."""
    m = store.write_memory("Fix cache race", metadata={"branch": "b"})
    index = store.memories.filter_index
    real = index.labelled_many
    moved = []

    def then_move(conn, labels):
        out = real(conn, labels)
        if not moved:
            moved.append(store.update_metadata(m.id, {"branch": "a"}))
        return out

    index.labelled_many = then_move
    assert [h.id for h in bs.branch_search(store, "cache race", 5, ["a", "b"])] == [m.id]
    assert moved
