"""Memory Lane's ranker mode builds features only for the rows that can reach each tier's DEPTH best
(hybrid.py `_reachable`); the answers (ids, order, scores) must equal those built over every candidate."""
from __future__ import annotations

import random

import numpy as np
import pytest

from reference.clock import LogicalClock
from reference.lane import MemoryLane
from reference.lane import hybrid
from reference.lane.hybrid import LANE, LaneHybrid, _best, _reachable
from reference.lane.taxonomy import MemoryType
from reference.lexical.ranking import fuse
from reference.lexical.recency import recency_prior
from reference.store import MemoryStore

WORDS = "upsert insert column table cli csv json index query cache retry flaky worker session token".split()
FILES = [f"pkg/mod{i}.py" for i in range(30)]
SEARCHES = [  # (query, filters, paths, session)
    ("cache retry worker", None, (), None),
    ("upsert column in pkg/mod3.py", None, (), None),
    ("flaky session token", {"tags": ["a"]}, (), None),
    ("what mistake did we make with the csv index", None, ("pkg/mod5.py",), None),
    ("json query", {"where_metadata": {"memory_type": ["correction"]}}, (), None),
    ("cache retry worker", None, ("pkg/mod7.py", "pkg/mod8.py"), "s1"),
    ("table", None, (), "s1"),
]


@pytest.fixture(scope="module")
def lane(tmp_path_factory):
    store = MemoryStore.open(tmp_path_factory.mktemp("prune"), clock=LogicalClock(1_700_000_000.0))
    rng = random.Random(11)
    types = [t.value for t in MemoryType]
    recs, times, t = [], [], 1_700_000_000.0
    for _ in range(1500):
        files = rng.sample(FILES, rng.choice([0, 1, 2]))
        text = " ".join(rng.choices(WORDS, k=rng.randint(2, 8)))   # short texts repeat: ties by id too
        meta = {"memory_type": rng.choice(types)}
        if files:
            text += "\n\nFiles changed: " + ", ".join(files)
            meta["files_changed"] = files
        recs.append({"text": text, "tags": [rng.choice("abc")], "metadata": meta})
        t += rng.choice([0.0, 1.0, 700.0, 3000.0])   # some writes share a moment (one tick), some do not
        times.append(t)
    store.write_memories(recs, times=times)
    lane = MemoryLane.for_store(store)
    ids = [m.id for m in store.memories.list(store.memories.filter(), limit=1500)]
    for mid in ids[:30]:
        lane.feedback(mid, rng.choice(["helpful", "harmful"]))
    for mid in ids[100:160]:
        store.delete_memory(mid)                      # removed rows stay in the lexical index
    lane.inject("cache retry worker", "s1", limit=5)  # excluded from the searches of session s1
    yield lane
    store.close()


def _answers(lane, top_k):
    return [[(h.id, h.score, h.relevance, h.similarity, h.feedback_factor)
             for h in lane.search(q, filters=f, top_k=top_k, session_id=s, paths=list(p) or None).hits]
            for q, f, p, s in SEARCHES]


@pytest.mark.parametrize("depth", [3, 20, hybrid.DEPTH])
@pytest.mark.parametrize("top_k", [1, 10])
@pytest.mark.parametrize("form", ["add", "multiply"])
def test_pruned_features_give_the_answers_of_every_candidate(lane, monkeypatch, depth, top_k, form):
    monkeypatch.setattr(hybrid, "DEPTH", depth)
    if form != LANE.recency_form:   # the prior's other form (seed 001's multiplication), the lexical ranking's
        monkeypatch.setattr(lane.hybrid, "params", LANE.with_(recency_form=form, recency_weight=0.7))
    real = LaneHybrid.features
    sizes: list[tuple[int | None, int]] = []

    def spy(self, query, flt, paths, p, depth=None):
        ft = real(self, query, flt, paths, p, depth)
        sizes.append((depth, ft.rows.size))
        return ft

    monkeypatch.setattr(LaneHybrid, "features", spy)
    pruned = _answers(lane, top_k)
    monkeypatch.setattr(LaneHybrid, "features", lambda self, query, flt, paths, p, depth=None:
                        spy(self, query, flt, paths, p, None))
    every = _answers(lane, top_k)
    assert pruned == every
    assert any(a for a in every)
    if depth < hybrid.DEPTH:   # the bound left rows out for some search (at 1,500 rows DEPTH 100 may keep all)
        kept = [n for d, n in sizes if d is not None]
        assert any(k < n for k, (_, n) in zip(kept, sizes[len(kept):]))


def test_a_write_between_searches_moves_the_kept_prior(lane, monkeypatch):
    monkeypatch.setattr(hybrid, "DEPTH", 5)
    before = lane.search("cache retry worker", top_k=5).ids
    new = lane.store("cache retry worker cache retry worker").id   # the newest: the whole prior shifts by one tick
    after = lane.search("cache retry worker", top_k=5).ids
    assert after[0] == new and after != before
    real = LaneHybrid.features
    monkeypatch.setattr(LaneHybrid, "features", lambda self, q, flt, paths, p, depth=None:
                        real(self, q, flt, paths, p, None))
    assert lane.search("cache retry worker", top_k=5).ids == after
    lane.memstore.delete_memory(new)


@pytest.mark.parametrize("seed", range(6))
def test_reachable_keeps_every_row_of_the_depth_best_and_their_ties(seed):
    """On random scores with many ties, ticks in bursts and masks dense or narrow: the depth best (and ties)
    of the rows kept are those of every row, and only rows with keyword evidence are kept."""
    rng = np.random.default_rng(seed)
    n = 4000
    lex = np.where(rng.random(n) < 0.6, np.round(rng.random(n), 2), 0.0)   # two decimals: many ties
    ticks = np.cumsum(rng.random(n) < 0.2)
    ok = rng.random(n) < (0.9 if seed % 2 else 0.05)   # a dense mask, or a narrow one (walked by its rows)
    commits = [None, np.zeros(n, dtype=bool), rng.random(n) < 0.5][seed % 3]   # commits, notes, or both
    for rw, scale, form in ((LANE.recency_weight, LANE.recency_scale, "add"), (0.0, 1.0, "add"),
                            (3.0, 500.0, "add"), (0.7, 20.0, "multiply"), (3.0, 500.0, "multiply")):
        p = LANE.with_(recency_weight=rw, recency_scale=scale, recency_form=form)
        prior = recency_prior(n, scale, ticks) if rw > 0.0 else None
        rel = fuse(lex, None, None, prior, p, commits=commits) if rw > 0.0 else lex
        for depth in (1, 7, 50):
            everyone = np.flatnonzero(ok & (lex > 0))
            want = everyone[_best(rel[everyone], np.arange(everyone.size), depth)]
            kept = _reachable(lex, ok, False, p, prior, depth, commits)
            assert np.all(ok[kept] & (lex[kept] > 0))
            got = kept[_best(rel[kept], np.arange(kept.size), depth)]
            assert np.array_equal(np.sort(got), np.sort(want))


def test_the_prior_cache_gives_recency_prior_s_floats_whether_laid_out_from_the_index_tail_or_not():
    from reference.lane.hybrid import PriorCache
    from reference.lexical.index import LexicalIndex
    from reference.lexical.recency import recency_prior
    index, cache = LexicalIndex(moment=60.0), PriorCache()
    for i in range(300):   # bursts of writes in one moment share a tick
        index.add(f"m{i}", f"note {i} about src/mod{i % 7}.py", 1_000.0 + 600.0 * (i // 5) + (i % 5))
    for scale in (3.0, 20.0):
        for n in (300, 120):   # every row (from the index's kept tail) and a prefix (computed here)
            got = cache.of(index, n, scale)
            assert np.array_equal(got, recency_prior(n, scale, index.ticks()[:n])) and not got.flags.writeable
    index.add("m300", "a later note", 1_000.0 + 600.0 * 80)
    assert np.array_equal(cache.of(index, 301, 20.0), recency_prior(301, 20.0, index.ticks()[:301]))
