"""A batch write with the knowledge layer on stores exactly what the same writes one by one store."""
from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference.clock import LogicalClock
from reference.knowledge import KnowledgeLayer
from reference.knowledge.neighbours import live_neighbours
from reference.knowledge.relations import RELATE_THRESHOLD, VECTOR_CANDIDATES
from reference.store import MemoryStore

FILES = ["src/features/auth/session.ts", "src/features/billing/invoice.py", "lib/cache.py"]
SYMBOLS = ["authClient.refresh()", "billing.round_total()", "`getUserName`"]
WORDS = "token refresh race cache redis invoice rounding retry timeout also therefore instead of".split()
STORE_FILES = ("blob.dat", "vectors.f32", "vectors.keys", "vectors.tags", "vectors.sums")


def _text(draw_words, f, s, d):
    return f"{' '.join(draw_words)} in {FILES[f]} near {SYMBOLS[s]} on 2025-0{1 + d}-1{d}."


records = st.lists(
    st.builds(lambda ws, f, s, d, dup, gap: (_text(ws, f, s, d), dup, gap),
              st.lists(st.sampled_from(WORDS), min_size=1, max_size=6), st.integers(0, 2), st.integers(0, 2),
              st.integers(0, 8), st.booleans(), st.sampled_from([0, 0, 1, 600])),
    min_size=1, max_size=14)


def _state(store: MemoryStore) -> tuple[str, dict[str, bytes]]:
    """Every tracker row (FTS by its terms, not its segment layout) and the bytes of the other files."""
    conn = store.tracker.conn()
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab USING fts5vocab(main, memories_fts, instance)")
    vocab = conn.execute("SELECT * FROM temp.vocab ORDER BY 1, 2, 3, 4").fetchall()
    rows = [line for line in conn.iterdump() if "_fts_data" not in line and "_fts_idx" not in line]
    store.close()
    return "\n".join(rows) + repr(vocab), {f: (store.data_dir / f).read_bytes() for f in STORE_FILES}


def _build(path: Path, recs: list, cuts: list[int] | None) -> tuple[str, dict[str, bytes]]:
    clock = LogicalClock(1_760_000_000.0)
    store = MemoryStore.open(path, clock=clock)
    KnowledgeLayer.for_store(store)
    texts, times, t = [], [], clock.now()
    for i, (text, dup, gap) in enumerate(recs):
        t += gap
        texts.append(texts[-1] if dup and texts else text)   # exact repeats: ties and near-1.0 cosines
        times.append(t)
    if cuts is None:
        for text, at in zip(texts, times):
            clock.set(at)
            store.write_memory(text, metadata={"n": len(text)})
    else:
        start = 0
        for size in cuts + [len(texts)]:
            end = min(len(texts), start + max(size, 1))
            if start < end:
                store.write_memories([dict(text=x, metadata={"n": len(x)}) for x in texts[start:end]],
                                     times=times[start:end])
            start = end
    return _state(store)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(recs=records, cuts=st.lists(st.integers(1, 6), max_size=4))
def test_batches_store_what_single_writes_store(recs, cuts):
    with tempfile.TemporaryDirectory() as tmp:
        one = _build(Path(tmp) / "one", recs, None)
        many = _build(Path(tmp) / "many", recs, cuts)
    assert one[1] == many[1]
    assert one[0] == many[0]


def test_batch_links_to_earlier_memories_only(tmp_path):
    """Within a batch, entry i sees the entries before it (vector and shared-entity links), never later ones."""
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_760_000_000.0))
    layer = KnowledgeLayer.for_store(store)
    texts = [f"fix the token refresh race in src/features/auth/session.ts step {i}" for i in range(6)]
    entries = store.write_memories([dict(text=t) for t in texts])
    order = {e.id: i for i, e in enumerate(entries)}
    targets = [(order[r.source_id], order[r.target_id]) for e in entries for r in layer.relationships(e.id)
               if r.source_id == e.id]
    assert targets and all(t < s for s, t in targets)
    assert {s for s, _ in targets} == set(range(1, 6))   # every later entry links back
    store.close()


def test_live_neighbours_are_the_exact_top_k(tmp_path):
    """Against a float64 brute force over the memories before each entry: same keys, same cosines."""
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_760_000_000.0), redact=False)
    rng = np.random.default_rng(3)
    vocab = [f"w{i}" for i in range(40)]
    recs = [dict(text=" ".join(rng.choice(vocab, size=8))) for _ in range(300)]
    entries = store.write_memories(recs)
    got = live_neighbours(store, entries, VECTOR_CANDIDATES, RELATE_THRESHOLD)
    vecs = np.stack([store.vectors.get(e.key_hash) for e in entries]).astype(np.float64)
    vecs /= np.linalg.norm(vecs, axis=1)[:, None]
    ids = [e.id for e in entries]
    for i in range(len(entries)):
        sims = vecs[:i] @ vecs[i]
        want = sorted(((-s, ids[j]) for j, s in enumerate(sims) if s > RELATE_THRESHOLD))[:VECTOR_CANDIDATES]
        key_to_id = {e.key_hash: e.id for e in entries}
        mine = sorted((-s, key_to_id[h]) for h, s in got[i])[:VECTOR_CANDIDATES]
        assert [m for _, m in mine] == [m for _, m in want]
        assert np.allclose([s for s, _ in mine], [s for s, _ in want], atol=1e-6)
    assert sum(map(len, got)) > 100   # the vocabulary is small: many pairs are above the threshold
    store.close()


def test_a_failing_layer_undoes_the_write(tmp_path):
    """One transaction per write: a listener that raises leaves no row, vector or filter entry behind."""
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_760_000_000.0))
    store.write_memory("kept")

    def boom(entries):
        raise RuntimeError("layer failed")
    store.add_write_listener(lambda e: None, batch=boom)
    with pytest.raises(RuntimeError):
        store.write_memory("dropped")
    with pytest.raises(RuntimeError):
        store.write_memories([dict(text="dropped too"), dict(text="and this")])
    assert [e.text for e in store.list_memories()] == ["kept"]
    assert len(store.vectors) == 1
    store.close()


def test_live_neighbours_from_the_index_equal_the_exact_ones(tmp_path, monkeypatch):
    """Above the vector index's threshold (lowered to its least, 1,000 rows; 100 candidates instead of
    1,000) candidates come from the index, in one search for the whole batch: same neighbours and cosines
    as the exact scan here, later batch entries still left out."""
    from reference.vectors import index as vector_index
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_760_000_000.0), redact=False)
    rng = np.random.default_rng(5)
    vocab = [f"w{i}" for i in range(60)]
    store.write_memories([dict(text=" ".join(rng.choice(vocab, size=8))) for _ in range(1_050)])
    batch = store.write_memories([dict(text=" ".join(rng.choice(vocab, size=8))) for _ in range(150)])
    exact = live_neighbours(store, batch, VECTOR_CANDIDATES, RELATE_THRESHOLD)
    searched = []
    real = store.vectors.candidate_rows_many
    monkeypatch.setattr(store.vectors, "candidate_rows_many",
                        lambda q, *a, **kw: searched.append(len(q)) or real(q, *a, **kw))
    monkeypatch.setattr(vector_index, "INDEX_MIN_ROWS", 1_000)
    monkeypatch.setattr(vector_index, "MIN_CANDIDATES", 100)
    indexed = live_neighbours(store, batch, VECTOR_CANDIDATES, RELATE_THRESHOLD)
    assert searched == [len(batch)]
    batch_keys = [e.key_hash for e in batch]
    for i, (got, want) in enumerate(zip(indexed, exact)):
        top = lambda hs: sorted(hs, key=lambda h: (-h[1], h[0]))[:VECTOR_CANDIDATES]  # noqa: E731
        assert top(got) == top(want)
        assert not set(h for h, _ in got) & set(batch_keys[i:])
    assert sum(map(len, indexed)) > 500
    store.close()


def test_batch_equals_single_writes_with_mentions_everywhere_and_a_colon_type(tmp_path):
    """Shared entities (the mention-id bound), entity ids read for the batch, and a gazetteer type with a
    colon (the rules then read entity types from the table): batch and single writes store the same."""
    texts = [f"{w} in src/features/auth/session.ts with authClient.refresh() for Alice, step {i % 3}"
             for i, w in enumerate(["token race", "also token race", "therefore the race", "instead of redis",
                                    "cache", "token race"] * 3)] + ["plain words only", "no entities here"]
    states = []
    for name, gaz in (("a", None), ("b", None), ("c", {"team:core": ["Alice"]}), ("d", {"team:core": ["Alice"]})):
        clock = LogicalClock(1_760_000_000.0)
        store = MemoryStore.open(tmp_path / name, clock=clock)
        KnowledgeLayer.for_store(store, gazetteer=gaz)
        if name in ("a", "c"):
            for t in texts:
                clock.advance(1)
                store.write_memory(t)
        else:
            store.write_memories([dict(text=t) for t in texts[:4]], times=[clock.now() + 1 + i for i in range(4)])
            store.write_memories([dict(text=t) for t in texts[4:]],
                                 times=[clock.now() + 1 + i for i in range(len(texts) - 4)])
        states.append(_state(store))
    assert states[0] == states[1] and states[2] == states[3]
    assert "sharedEntities" in states[0][0] and "team:core" in states[2][0]


MIXED = ["see https://example.com/a/b.py and mail bob@x.org about src/features/auth/session.ts yesterday",
         "from reference.knowledge import layer; import os.path\nauthClient.refresh() calls getUserName `tokenStore`",
         "On Jan 25, 2026 we replaced redis with memcached; 3 days ago the cache was disabled. 1/25/2026 also",
         "therefore, combining src/lib/cache.py and file:src/x.py and sym:src/x.py#Foo:class:1:9 project:alpha",
         "Additionally the invoice rounding now uses decimal in packages/billing/round.py (2025-03-04T10:00Z)",
         "last friday next week in 2 days module foo.bar package baz.qux README.md setup.cfg",
         "AWS key AKIAIOSFODNN7EXAMPLE leaked; token ghp_abcdefghijklmnopqrstuvwxyz0123456789 in CI",
         "ssr font query retry modal index term468 term7 term33 term83 term1362 term42 term5"]


def test_a_mixed_workload_stores_the_same_in_batches_of_every_size(tmp_path):
    """Every extraction rule, redaction, concepts, dates and repeats, in batches of 1, 5 and 40 against single
    writes: the same rows, FTS terms, blob and vector bytes."""
    recs = [dict(text=MIXED[i % len(MIXED)] + f" variant {i % 5}", task="task:debug" if i % 2 else None,
                 tags=["p1"], metadata={"concepts": ["cache rounding"]} if i % 3 == 0 else {"n": i})
            for i in range(70)]
    states = []
    for name, sizes in (("one", [1] * len(recs)), ("many", [1, 5, 40, 1, 5, 18])):
        clock = LogicalClock(1_760_000_000.0)
        store = MemoryStore.open(tmp_path / name, clock=clock)
        KnowledgeLayer.for_store(store)
        start = 0
        for size in sizes:
            part = recs[start: start + size]
            times = [clock.now() + 1 + i for i in range(len(part))]
            if size == 1:
                clock.set(times[0])
                store.write_memory(**part[0])
            else:
                store.write_memories(part, times=times)
            start += size
        assert start == len(recs)
        states.append(_state(store))
    assert states[0][1] == states[1][1]
    assert states[0][0] == states[1][0]
    assert "[REDACTED:aws-access-key]" in states[0][0] and "sharedEntities" in states[0][0]


def test_live_neighbours_leave_out_other_kinds_and_deleted_memories(tmp_path):
    """Rows of another tag (a file, say) and deleted memories are never neighbours, however close: the exact
    path's row mask (with the store's rows split between the kept mapping and rows appended since)."""
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_760_000_000.0), redact=False)
    rng = np.random.default_rng(4)
    vocab = [f"w{i}" for i in range(30)]
    first = store.write_memories([dict(text=" ".join(rng.choice(vocab, size=8))) for _ in range(120)])
    live_neighbours(store, first[:1], VECTOR_CANDIDATES, RELATE_THRESHOLD)   # maps the rows so far
    for j, e in enumerate(first[:40]):   # an identical vector under another tag, for each of 40 memories
        store.vectors.put(10**6 + j, store.vectors.get(e.key_hash), tag=1)
    gone = {e.key_hash for e in first[40:60]}
    for e in first[40:60]:
        assert store.delete_memory(e.id)
    batch = store.write_memories([dict(text=first[i].text) for i in range(0, 60, 3)])   # exact repeats
    got = live_neighbours(store, batch, VECTOR_CANDIDATES, RELATE_THRESHOLD)
    kept = [e for e in first if e.key_hash not in gone]
    vecs = np.stack([store.vectors.get(e.key_hash) for e in kept + batch]).astype(np.float64)
    vecs /= np.linalg.norm(vecs, axis=1)[:, None]
    keys = [e.key_hash for e in kept + batch]
    for i, found in enumerate(got):
        me = len(kept) + i
        sims = vecs[:me] @ vecs[me]
        want = sorted(((-s, keys[j]) for j, s in enumerate(sims) if s > RELATE_THRESHOLD))[:VECTOR_CANDIDATES]
        # every clear member of the exact top 10 is found (a tie at the 10th place may go either way)
        clear = {h for s, h in want if len(want) < VECTOR_CANDIDATES or -s > -want[-1][0] + 1e-6}
        assert clear <= {h for h, _ in found}
        assert not {h for h, _ in found} & (gone | set(range(10**6, 10**6 + 40)))
    assert sum(map(len, got)) > 50
    store.close()


@pytest.mark.parametrize("indexed", [False, True])
def test_chunks_and_blocks_do_not_change_the_neighbours(tmp_path, monkeypatch, indexed):
    """A batch cut into chunks of a few queries and score blocks of a few columns (as a huge batch or store
    would be, to bound memory) finds what one block finds, on the exact path and on the index path."""
    from reference.vectors import index as vector_index
    from reference.knowledge import neighbours
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_760_000_000.0), redact=False)
    rng = np.random.default_rng(6)
    vocab = [f"w{i}" for i in range(50)]
    store.write_memories([dict(text=" ".join(rng.choice(vocab, size=8))) for _ in range(1_050)])
    batch = store.write_memories([dict(text=" ".join(rng.choice(vocab, size=8))) for _ in range(60)])
    if indexed:
        monkeypatch.setattr(vector_index, "INDEX_MIN_ROWS", 1_000)
        monkeypatch.setattr(vector_index, "MIN_CANDIDATES", 100)
    whole = live_neighbours(store, batch, VECTOR_CANDIDATES, RELATE_THRESHOLD)
    monkeypatch.setattr(neighbours, "CHUNK", 7)
    monkeypatch.setattr(neighbours, "BLOCK", 5 * 1_110 if not indexed else 50)
    cut = live_neighbours(store, batch, VECTOR_CANDIDATES, RELATE_THRESHOLD)
    assert cut == whole and sum(map(len, whole)) > 200
    keys = [e.key_hash for e in batch]
    assert all(not {h for h, _ in got} & set(keys[i:]) for i, got in enumerate(cut))   # never itself or later
    assert any({h for h, _ in got} & set(keys[:i]) for i, got in enumerate(cut))      # earlier entries, yes
    assert (store.vectors._quantized is not None) == indexed
    store.close()


def test_a_single_writes_lookup_leaves_out_itself_other_kinds_and_deleted_memories(tmp_path):
    """One entry at a time, as a single write asks (the exact path's per-hit rules): never itself, another
    tag's row or a deleted memory, and every clear member of the float64 top 10 over the memories before it."""
    store = MemoryStore.open(tmp_path, clock=LogicalClock(1_760_000_000.0), redact=False)
    rng = np.random.default_rng(5)
    vocab = [f"w{i}" for i in range(30)]
    first = store.write_memories([dict(text=" ".join(rng.choice(vocab, size=8))) for _ in range(120)])
    for j, e in enumerate(first[:40]):   # an identical vector under another tag, for each of 40 memories
        store.vectors.put(10**6 + j, store.vectors.get(e.key_hash), tag=1)
    gone = {e.key_hash for e in first[40:60]}
    for e in first[40:60]:
        assert store.delete_memory(e.id)
    kept = [e for e in first if e.key_hash not in gone]
    found_any = 0
    for i in range(0, 60, 3):   # exact repeats of live and of deleted memories
        e = store.write_memory(first[i].text)
        found = live_neighbours(store, [e], VECTOR_CANDIDATES, RELATE_THRESHOLD)[0]
        vecs = np.stack([store.vectors.get(x.key_hash) for x in kept]).astype(np.float64)
        vecs /= np.linalg.norm(vecs, axis=1)[:, None]
        me = store.vectors.get(e.key_hash).astype(np.float64)
        sims = vecs @ (me / np.linalg.norm(me))
        want = sorted(((-s, x.key_hash) for s, x in zip(sims, kept) if s > RELATE_THRESHOLD))[:VECTOR_CANDIDATES]
        clear = {h for s, h in want if len(want) < VECTOR_CANDIDATES or -s > -want[-1][0] + 1e-6}
        got = {h for h, _ in found}
        assert clear <= got and len(found) >= len(want)   # near-ties at the k-th place may come too
        assert not got & (gone | set(range(10**6, 10**6 + 40)) | {e.key_hash})
        assert (first[i].key_hash in got) == (first[i].key_hash not in gone)
        found_any += len(found)
        kept.append(e)
    assert found_any > 50
    store.close()
