"""The fast paths of the lexical ranking give what the plain computations give, float for float.

`top_rows`' sampled threshold and numpy sort, `bm25`'s kept posting weights and dense common terms,
`Postings`' pending appends, `fuse`'s in-place sums over the prior's tail, the index's kept prior,
`semantic_rerank`'s numpy order, `LexicalLayer`'s kept last answer and its `nearest` (rrf's vector list
without an id lookup) each stand in for a plain computation (issue 27's latency work);
each is checked here against that plain computation, including after writes and removals.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.clock import LogicalClock
from reference.lexical.index import LexicalIndex
from reference.lexical.layer import LexicalLayer
from reference.lexical.params import TUNED
from reference.lexical.postings import Postings
from reference.lexical import index as index_module
from reference.lexical.ranking import fuse, hybrid_scores, top_rows
from reference.lexical.recency import recency_prior, recency_tail
from reference.store import MemoryStore
from reference.tracker import MemoryFilter


def _plain_top(scores: np.ndarray, k: int, ids: list[str], positive: bool = True) -> list[tuple[int, float]]:
    """The definition: the k best (row, score), score descending, ties by id; positive (or finite) scores."""
    ok = [r for r in range(scores.size) if (scores[r] > 0.0 if positive else np.isfinite(scores[r]))]
    return [(r, float(scores[r])) for r in sorted(ok, key=lambda r: (-scores[r], ids[r]))[:max(k, 0)]]


_VALUES = st.sampled_from([0.0, -0.0, 0.25, 0.5, 1.0, 2.0, -1.0, -np.inf, np.inf, 0.3333333333333333, 1e-300])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_VALUES, st.floats(0.0, 5.0)), max_size=700), st.integers(0, 40), st.randoms())
def test_top_rows_is_the_plain_definition(values, k, rnd):
    scores = np.asarray(values, dtype=np.float64)
    ids = [f"m{i:04d}" for i in range(scores.size)]
    rnd.shuffle(ids)
    for positive in (True, False):
        got = top_rows(scores, k, ids, positive)
        want = _plain_top(scores, k, ids, positive)
        assert got == want
        assert [np.signbit(s) for _, s in got] == [np.signbit(s) for _, s in want]


def test_top_rows_large_with_a_sample_threshold():
    rng = np.random.default_rng(3)
    scores = np.zeros(50_000)
    hit = rng.choice(50_000, 20_000, replace=False)
    scores[hit] = np.round(rng.random(20_000), 3)          # many ties among the best
    scores[rng.choice(50_000, 5_000, replace=False)] = -np.inf
    ids = [f"m{i:06d}" for i in rng.permutation(50_000)]
    for k in (1, 10, 100):
        assert top_rows(scores, k, ids) == _plain_top(scores, k, ids)


def test_postings_pending_appends_read_as_arrays():
    post = Postings()
    want = [(r, 1 + r % 3, float(10 + r % 7)) for r in range(0, 300, 3)]
    for i, (r, tf, ln) in enumerate(want):
        post.append(r, tf, ln)
        if i in (0, 5, 50):            # reads in between move the pending part into the arrays
            assert post.rows().tolist() == [w[0] for w in want[: i + 1]]
    assert post.rows().dtype == np.int32 and post.n == post.live == len(want)
    assert post.rows().tolist() == [w[0] for w in want]
    assert post.tfs().tolist() == [float(w[1]) for w in want]
    assert post.lengths().tolist() == [w[2] for w in want]


def test_postings_keep_read_only_arrays_and_copy_them_out_before_growing():
    rows, tfs, lens = np.arange(0, 40, 2, dtype=np.int32), np.ones(20), np.full(20, 7.0)
    for a in (rows, tfs, lens):
        a.flags.writeable = False
    post = Postings()
    post.extend(rows[:10], tfs[:10], lens[:10])
    assert np.shares_memory(post.rows(), rows)            # kept as given: no copy
    post.append(99, 3, 5.0)
    post.extend(rows[10:], tfs[10:], lens[10:])
    assert not np.shares_memory(post.rows(), rows)        # copied out before anything was written
    assert rows.tolist() == list(range(0, 40, 2)) and tfs.tolist() == [1.0] * 20   # the given arrays untouched
    assert post.rows().tolist() == list(range(0, 20, 2)) + [99] + list(range(20, 40, 2))
    assert post.tfs().tolist() == [1.0] * 10 + [3.0] + [1.0] * 10 and post.n == post.live == 21
    empty = Postings()
    empty.extend(np.zeros(0, dtype=np.int32), np.zeros(0), np.zeros(0))   # nothing: no write into shared arrays
    assert empty.rows().tolist() == [] and empty.n == 0
    writable = np.arange(5, dtype=np.int32)
    other = Postings()
    other.extend(writable, np.ones(5), np.ones(5))         # writable arrays could change under it: copied
    writable[:] = 0
    assert other.rows().tolist() == [0, 1, 2, 3, 4]


def test_bm25_kept_weights_follow_writes_and_removals():
    texts = [f"token refresh race {'cache ' * (i % 4)}item{i} sqlite_utils/db.py" for i in range(60)]
    index = LexicalIndex()
    for i, t in enumerate(texts[:40]):
        index.add(f"m{i}", t)
    first = index.bm25("token cache refresh", 1.2, 0.4)
    assert np.array_equal(index.bm25("token cache refresh", 1.2, 0.4), first)   # kept weights: same floats
    for i, t in enumerate(texts[40:], start=40):
        index.add(f"m{i}", t)
    index.remove("m3")
    index.remove("m41")
    fresh = LexicalIndex()
    for i, t in enumerate(texts):
        fresh.add(f"m{i}", t)
    fresh.remove("m3")
    fresh.remove("m41")
    for k1, b in ((1.2, 0.4), (3.0, 0.1)):
        got = index.bm25("token cache refresh", k1, b)
        assert np.array_equal(got, fresh.bm25("token cache refresh", k1, b))
        assert got[3] == 0.0 and got[41] == 0.0 and got[42] > 0.0


def test_bm25_dense_common_terms_sum_as_the_postings_do(monkeypatch):
    # "token" is in every row, "cache" in 3/4, "item7" in one: the first two take the dense path
    texts = [f"token {'cache ' * (i % 4 != 0)}refresh item{i % 50}" for i in range(400)]
    index = LexicalIndex()
    for i, t in enumerate(texts):
        index.add(f"m{i}", t)
    index.remove("m10")
    query = "token cache item7 refresh"
    dense = index.bm25(query, 1.2, 0.4)
    assert any(key[3] for key in index._weights), "no term took the dense path"
    monkeypatch.setattr(index_module, "DENSE_SHARE", float("inf"))    # every term through its postings
    sparse = index.bm25(query, 1.2, 0.4)
    assert not index._weights or not all(key[3] for key in index._weights)
    assert np.array_equal(dense, sparse) and dense[10] == 0.0 and dense[7] > dense[8] > 0.0
    assert dense.tobytes() == sparse.tobytes()


def test_fuse_in_place_over_the_prior_tail_is_the_copying_sum():
    rng = np.random.default_rng(5)
    ticks = np.sort(rng.integers(0, 400, 3_000))
    for scale in (0.0, 3.0, 20.0, 1e6):
        start, tail = recency_tail(ticks.size, scale, ticks)
        full = recency_prior(ticks.size, scale, ticks)
        assert np.array_equal(full[start:], tail) and not full[:start].any()
        first = np.where(rng.random(ticks.size) < 0.5, rng.random(ticks.size), 0.0)
        shared, named = rng.random(ticks.size), np.where(rng.random(ticks.size) < 0.1, 1.0, 0.0)
        for params in (TUNED.with_(recency_form="multiply"), TUNED.with_(recency_form="add")):
            plain = fuse(first, shared, named, full, params)
            kept = first.copy()
            assert np.array_equal(fuse(first, shared, named, full, params), plain)
            assert np.array_equal(first, kept)                     # the copying form leaves its input alone
            got = fuse(kept, shared, named, tail, params, start, in_place=True)
            assert got is kept and got.tobytes() == plain.tobytes()


def test_layer_kept_scores_are_read_only_and_follow_writes(tmp_path):
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_700_000_000.0))
    for i in range(30):
        store.write_memory(f"token refresh race number {i} in src/auth.py")
    layer = LexicalLayer.for_store(store)
    params = TUNED.with_(vector_weight=0.0)
    a = layer.scores("token refresh", params)
    assert layer.scores("token refresh", params) is a and not a.flags.writeable
    store.write_memory("token refresh token refresh, the newest")
    b = layer.scores("token refresh", params)
    assert b is not a and b.size == a.size + 1      # a write is seen: the kept answer is not handed out
    assert np.array_equal(b, hybrid_scores(layer.index, "token refresh", params))
    assert b[-1] > 0.0
    store.close()


def test_index_keeps_its_recency_tail_until_a_row_is_added():
    index = LexicalIndex(moment=60.0)
    for i in range(50):
        index.add(f"m{i:02d}", f"note {i} about the cache", 1_700_000_000.0 + 30.0 * i)
    start, tail = index.recency_tail(5.0)
    want = recency_tail(index.rows, 5.0, index.ticks())
    assert start == want[0] and tail.tobytes() == want[1].tobytes() and not tail.flags.writeable
    assert index.recency_tail(5.0)[1] is tail                   # kept
    assert index.recency_tail(7.0)[1] is not tail               # another scale is computed
    index.add("m50", "a later note", 1_700_010_000.0)
    start2, tail2 = index.recency_tail(7.0)
    want2 = recency_tail(index.rows, 7.0, index.ticks())
    assert start2 == want2[0] and tail2.tobytes() == want2[1].tobytes() and tail2[-1] == 1.0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([0.1, 0.2, 0.25, 0.5, 1.0, 0.3333333333333333]), min_size=1, max_size=60),
       st.lists(st.sampled_from([np.nan, -0.5, 0.0, 0.2, 0.7, 1.0]), min_size=60, max_size=60),
       st.sampled_from([0.0, 0.1, 1.0]), st.randoms())
def test_semantic_rerank_order_is_the_plain_sort(values, cos_by_row, weight, rnd):
    from reference.lexical.ranking import semantic_rerank
    scores = np.zeros(60)
    scores[: len(values)] = values
    ids = [f"m{i:03d}" for i in range(60)]
    rnd.shuffle(ids)
    cos = np.asarray(cos_by_row)
    got = semantic_rerank(scores, 20, lambda rows: cos[rows], weight, ids)
    top = top_rows(scores, 20, ids)
    rows = np.asarray([r for r, _ in top])
    s = np.asarray([v for _, v in top]) / max(v for _, v in top)
    c = np.maximum(np.nan_to_num(cos[rows], nan=0.0), 0.0)
    if weight > 0.0 and c.max() > 0.0:
        s = s + weight * c / c.max()
    want = sorted(((int(r), float(v)) for r, v in zip(rows, s)), key=lambda rv: (-rv[1], ids[rv[0]]))
    assert got == want


def test_layer_nearest_is_the_stores_vector_list(tmp_path):
    clock = LogicalClock(1_700_000_000.0)
    store = MemoryStore.open(tmp_path, clock=clock)
    for i in range(40):
        clock.advance(60)
        # every text twice: equal cosines, so the cut at k falls inside ties (broken by id)
        store.write_memory(f"token refresh race {i % 20} in the auth cache", context=["context:auth"] if i % 3 else [])
    layer = LexicalLayer.for_store(store)
    for ctx in (None, ["context:auth"]):
        flt = store.memories.filter(context=ctx)
        allowed = None if flt.empty else store.memories.candidates(flt)
        for k in (1, 5, 7, 100):
            want = store.memories.ranked_lists("auth cache race 7", flt, k, keyword=False)[1]
            assert layer.nearest("auth cache race 7", k, allowed) == want
    assert layer.nearest("?!", 10) == []        # no hashed word: no nearest memories
    store.close()


def _state(index: LexicalIndex) -> dict:
    """Everything an index answers from, as plain values (postings as lists, in the dicts' order)."""
    def posts(d):
        return [(t, p.rows().tolist(), p.tfs().tolist(), p.lengths().tolist(), p.n, p.live) for t, p in d.items()]
    return {"ids": index.ids, "row_of": index.row_of, "entities": index.entities,
            "terms": [index.terms(r) for r in range(index.rows)], "ticks": index.ticks().tolist(),
            "alive": index.alive().tolist(), "len": index._len[: index.rows].tolist(), "live": index.live,
            "total": index.total, "postings": posts(index.postings), "entity_postings": posts(index.entity_postings),
            "paths": None if index.entity_paths is None else _state(index.entity_paths)}


_WORDS = st.sampled_from(["fix", "insert_all", "Table.insert", "sqlite_utils/db.py", "docs/cli.rst", "getUserName",
                          "caching", "cached", "the", "m2m", "README.md", "def upsert(", "class Table:", "tests"])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.lists(_WORDS, max_size=12), st.sampled_from([None, 0.0, 100.0, 700.0, 5000.0])),
                max_size=30), st.integers(0, 30), st.booleans())
def test_add_many_builds_the_index_that_adds_one_by_one_build(docs, split, definitions):
    """`add_many` (a first build, a batch write) against `add` per document, also after single adds
    (their pending postings first) and a removal; bm25 then gives the same floats. Batches this small take the
    grouped path only with `BULK_MIN_DOCS` lowered, as here; the layer test below takes the default."""
    saved, index_module.BULK_MIN_DOCS = index_module.BULK_MIN_DOCS, 1
    try:
        _check_add_many(docs, split, definitions)
    finally:
        index_module.BULK_MIN_DOCS = saved


def _check_add_many(docs, split, definitions):
    one, many = LexicalIndex(definitions=definitions), LexicalIndex(definitions=definitions)
    items = [(f"m{i}", " ".join(words), t) for i, (words, t) in enumerate(docs)]
    for doc, text, t in items:
        one.add(doc, text, t)
    for doc, text, t in items[:split]:
        many.add(doc, text, t)
    if items[:split]:
        many.remove(items[0][0])
        one.remove(items[0][0])
        assert many.add_many(items[split:]) == list(range(split, len(items)))
    else:
        many.add_many(items)
    assert _state(many) == _state(one)
    for query in ("insert_all fix", "sqlite_utils/db.py cached", "table"):
        assert many.bm25(query, 1.2, 0.75).tolist() == one.bm25(query, 1.2, 0.75).tolist()
    # more after the batch: the postings it left as read-only slices are copied out before they grow
    later = [(f"n{i}", text, t) for i, (_, text, t) in enumerate(items)]
    for index in (one, many):
        for doc, text, t in later:
            index.add(doc, text, t)
    assert _state(many) == _state(one)


def test_add_many_refuses_a_repeated_or_live_id_before_adding_anything():
    index = LexicalIndex()
    index.add("a", "fix db.py")
    for batch in ([("b", "x", None), ("a", "y", None)], [("c", "x", None), ("c", "y", None)]):
        with pytest.raises(ValueError, match="already indexed"):
            index.add_many(batch)
        assert index.ids == ["a"] and index.rows == 1


@pytest.mark.parametrize("bulk_min", [1, index_module.BULK_MIN_DOCS], ids=["grouped", "default"])
def test_layer_first_build_and_batch_writes_give_the_one_by_one_index(tmp_path, monkeypatch, bulk_min):
    """The layer indexes a store's memories in batches (its first build, then a batch write's pending
    memories); the index is the one `add` gives memory by memory, oldest first."""
    monkeypatch.setattr(index_module, "BULK_MIN_DOCS", bulk_min)
    clock = LogicalClock(1_700_000_000.0)
    store = MemoryStore.open(tmp_path / "s", clock=clock)
    texts = [f"fix {w} in src/mod{i % 7}.py" for i, w in enumerate(["insert_all", "caching", "m2m", "upsert"] * 30)]
    store.write_memories([dict(text=t, task="task:debug", context=["context:api"]) for t in texts[:80]])
    layer = LexicalLayer.for_store(store)
    layer.sync()                                  # the first build
    clock.advance(3600)                           # a later moment: the batch's rows get a tick of their own
    batch = store.write_memories([dict(text=t, task="task:debug", context=["context:api"]) for t in texts[80:]])
    stored = [(e.id, e.text, e.created_at) for e in store.memories.iter(MemoryFilter())]   # oldest first
    pending, built = LexicalIndex(), LexicalIndex()   # the one-by-one indexes of both ways in
    for doc, text, t in [x for x in stored if x[0] not in {e.id for e in batch}] + [(e.id, e.text, e.created_at)
                                                                                for e in batch]:
        pending.add(doc, text, t)
    for doc, text, t in stored:
        built.add(doc, text, t)
    assert _state(layer.sync()) == _state(pending)   # the batch added from the layer's pending writes, as written
    assert _state(LexicalLayer(store).sync()) == _state(built)   # a first build of all of them, oldest first
    assert built.ticks().tolist() == [0] * 80 + [1] * 40
    store.close()
