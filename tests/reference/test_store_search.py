"""Store searches against plain models: filtered semantic ranking, keyword, listing, unified, code."""
from __future__ import annotations

import random

import numpy as np
import pytest

from reference.clock import LogicalClock
from reference.embed import HashingEmbedder
from reference.errors import UnknownSlug
from reference.memories.args import InvalidArgument
from reference.store import MemoryStore
from reference.vectors.search import UnknownType

WORDS = ("auth token refresh race billing invoice decimal cache redis queue worker retry timeout deploy "
         "docker schema migration index query latency frontend button modal css api endpoint").split()
TASKS = ["task:debug", "task:refactor", "task:optimize"]
CONTEXTS = ["context:auth", "context:billing", "context:api", "context:frontend"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """60 memories with random words, tasks, contexts, tags and branches, plus the model's view of them."""
    rng = random.Random(7)
    clock = LogicalClock(1_700_000_000.0)
    s = MemoryStore.open(tmp_path_factory.mktemp("corpus"), clock=clock)
    model = []
    for i in range(60):
        clock.advance(rng.choice([0, 1, 1, 2]))  # some memories share a timestamp
        text = " ".join(rng.sample(WORDS, 5)) + f" note{i}"
        task = rng.choice(TASKS + [None])
        ctx = rng.sample(CONTEXTS, rng.randint(0, 2))
        tags = rng.sample(["p1", "p2", "p3"], rng.randint(0, 2))
        branch = rng.choice(["main", "dev"])
        e = s.write_memory(text, task=task, context=ctx, tags=tags, metadata={"branch": branch})
        model.append(dict(id=e.id, text=text, task=task, ctx=set(ctx), tags=set(tags), branch=branch,
                          created=clock.now()))
    yield s, model
    s.close()


def matches(m, task=None, context=(), tags=(), branches=None) -> bool:
    return ((task is None or m["task"] == task) and set(context) <= m["ctx"] and set(tags) <= m["tags"]
            and (branches is None or m["branch"] in branches))


def model_rank(model, query, k, **flt) -> list[tuple[str, float]]:
    emb = HashingEmbedder()
    q = emb.embed([query])[0].astype(np.float64)
    scored = [(m["id"], float(emb.embed([m["text"]])[0].astype(np.float64) @ q)) for m in model if matches(m, **flt)]
    scored.sort(key=lambda x: (-x[1], x[0]))
    return scored[:k]


@pytest.mark.parametrize("query,flt", [
    ("token refresh race", {}),
    ("billing invoice decimal", {"context": ["context:billing"]}),
    ("cache latency", {"task": "task:optimize"}),
    ("api endpoint timeout", {"context": ["context:api"], "tags": ["p1"]}),
    ("deploy docker", {"branches": ["dev"]}),
])
def test_filtered_semantic_ranking_matches_the_model(corpus, query, flt):
    s, model = corpus
    kwargs = {k: v for k, v in flt.items() if k != "branches"}
    where = {"branch": flt["branches"]} if "branches" in flt else None
    got = s.search_memories(query, top_k=7, where_metadata=where, **kwargs)
    want = model_rank(model, query, 7, **flt)
    assert [h.id for h in got] == [i for i, _ in want]
    np.testing.assert_allclose([h.score for h in got], [sc for _, sc in want], atol=1e-5)
    assert all(h.kind == "memory" and h.entry.id == h.id for h in got)


def test_filter_only_search_is_newest_first(corpus):
    s, model = corpus
    got = [h.id for h in s.search_memories(context=["context:auth"], top_k=100)]
    want = sorted((m for m in model if "context:auth" in m["ctx"]), key=lambda m: (-m["created"], m["id"]))
    assert got == [m["id"] for m in want]
    assert s.search_memories("   ", context=["context:auth"], top_k=3)[0].score == 0.0


def test_list_memories_pagination(corpus):
    s, model = corpus
    want = [m["id"] for m in sorted(model, key=lambda m: (-m["created"], m["id"])) if m["task"] == "task:debug"]
    pages = [s.list_memories(task="task:debug", limit=4, offset=o) for o in range(0, len(want) + 4, 4)]
    assert [e.id for p in pages for e in p] == want


def test_iter_memories_oldest_first(corpus):
    s, model = corpus
    want = [m["id"] for m in sorted(model, key=lambda m: (m["created"], m["id"]))]
    assert [e.id for e in s.iter_memories()] == want
    assert [e.id for e in s.iter_memories(context=["context:api"])] == [
        i for i in want if "context:api" in next(m for m in model if m["id"] == i)["ctx"]]


def test_keyword_search_finds_exactly_the_texts_with_the_word(corpus):
    s, model = corpus
    got = {h.id for h in s.keyword_search("redis", top_k=100)}
    assert got == {m["id"] for m in model if "redis" in m["text"].split()}
    dev = {h.id for h in s.keyword_search("redis", top_k=100, where_metadata={"branch": ["dev"]})}
    assert dev == {m["id"] for m in model if "redis" in m["text"].split() and m["branch"] == "dev"}
    scores = s.fts_scores("redis queue", 5)
    assert scores and all(v > 0 for v in scores.values())
    assert list(scores) == [h.id for h in s.keyword_search("redis queue", top_k=5)]


def test_keyword_search_by_tag(corpus):
    s, model = corpus
    assert {h.id for h in s.keyword_search("p3", top_k=100)} == {m["id"] for m in model if "p3" in m["tags"]}


def test_vector_primitives_agree_with_the_model(corpus):
    s, model = corpus
    ids = [m["id"] for m in model[:10]]
    got = s.vector_scores("worker retry", ids)
    want = dict(model_rank(model[:10], "worker retry", 10))
    assert got.keys() == set(ids)
    for i in ids:
        assert got[i] == pytest.approx(want[i], abs=1e-5)
    top = s.vector_topk("worker retry", 5)
    assert [h.id for h in top] == [i for i, _ in model_rank(model, "worker retry", 5)]


def test_ties_are_broken_by_id(tmp_path):
    s = MemoryStore.open(tmp_path / "d", clock=LogicalClock())
    ids = [s.write_memory("identical words here").id for _ in range(5)]
    assert [h.id for h in s.search_memories("identical words", top_k=3)] == sorted(ids)[:3]
    assert [h.id for h in s.search_all("identical words", top_k=3)] == sorted(ids)[:3]
    s.close()


def test_bad_search_arguments(corpus):
    s, _ = corpus
    assert s.search_memories("auth", top_k=0) == []
    with pytest.raises(InvalidArgument):
        s.search_memories("auth", top_k=-1)
    with pytest.raises(InvalidArgument):
        s.search_memories("auth", context="context:auth")
    with pytest.raises(UnknownSlug):
        s.search_memories("auth", task="task:unknown")
    with pytest.raises(UnknownType):
        s.search_all("auth", types=["memory", "planet"])
    for q in ['"unbalanced', "a -b", "col:on", "st*r", "NOT", "(x"]:
        s.keyword_search(q)


@pytest.fixture
def mixed(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    (root / "tokens.py").write_text(
        "def refresh_token(session):\n    return session.renew()\n\n\n"
        "class TokenCache:\n    def evict(self, key):\n        del self.items[key]\n")
    (root / "billing.py").write_text("def round_invoice(total):\n    return round(total, 2)\n")
    s = MemoryStore.open(tmp_path / "d", clock=LogicalClock())
    s.index_directory(root)
    mem = s.write_memory("refresh token renewal is racy")
    yield s, mem
    s.close()


def test_search_all_respects_types(mixed):
    s, mem = mixed
    kinds = {h.kind for h in s.search_all("refresh token", top_k=50)}
    assert kinds == {"file", "symbol", "chunk", "memory"}
    assert {h.kind for h in s.search_all("refresh token", top_k=50, types=["symbol"])} == {"symbol"}
    only_mem = s.search_all("refresh token", top_k=50, types=["memory"])
    assert [h.id for h in only_mem] == [mem.id] and only_mem[0].entry == mem
    code = s.search_all("refresh token", top_k=50, types=["file", "chunk"])
    assert {h.id for h in code} == {"file:tokens.py", "file:billing.py", "chunk:tokens.py:0", "chunk:billing.py:0"}
    assert all(h.meta["path"] in ("tokens.py", "billing.py") for h in code)


def test_symbol_search_prefers_exact_names(mixed):
    s, _ = mixed
    hits = s.symbol_search("evict", top_k=3)
    assert hits[0].id == "sym:tokens.py#TokenCache.evict:method:6:7"
    assert hits[0].meta["name_bonus"] == 1.0 and hits[0].meta["symbol_kind"] == "method"
    assert hits[0].score == pytest.approx(hits[0].meta["semantic"] + 1.0)
    assert s.symbol_search("TokenCache", top_k=1)[0].id == "sym:tokens.py#TokenCache:class:5:7"


def test_code_search_returns_code_only(mixed):
    s, _ = mixed
    hits = s.code_search("round invoice total", top_k=2)
    assert {h.kind for h in hits} <= {"chunk", "file"}
    assert hits[0].meta["path"] == "billing.py"


@pytest.mark.parametrize("copies", [5, 30])  # 30: the tie group is larger than the fast path's slack
def test_keyword_ties_by_id_on_both_fts_paths(tmp_path, copies):
    s = MemoryStore.open(tmp_path / "d", clock=LogicalClock())
    ids = [s.write_memory("alpha beta gamma", metadata={"all": 1}).id for _ in range(copies)]
    s.write_memory("alpha only")
    fast = [h.id for h in s.keyword_search("alpha beta", top_k=3)]
    joined = [h.id for h in s.keyword_search("alpha beta", top_k=3, where_metadata={"all": [1]})]
    assert fast == joined == sorted(ids)[:3]
    s.close()
