"""The seed's hybrid search (hybrid.py): the 0.4/0.6 merge recomputed from the primitives, filters, decay, enrichment.

`oracle_search` runs it when `ORACLE_SEARCH` is "seed" (and always at the seeds' values); these tests set that,
so that they test hybrid.py whatever the calibration chose. The tuned search: test_lexical_search.py.
"""
import math

import pytest

from reference.embed import HashingEmbedder
from reference.knowledge import KnowledgeError
from reference.knowledge import layer as knowledge_layer
from reference.knowledge.hybrid import DECAY_WEIGHT


@pytest.fixture(autouse=True)
def seed_search(monkeypatch):
    monkeypatch.setattr(knowledge_layer, "ORACLE_SEARCH", "seed")

DAY = 86_400.0
TEXTS = [
    "Token refresh races when two tabs refresh at once.",
    "Refresh the access token before it expires.",
    "Invoice totals are rounded with decimal at the end.",
    "Cache pip wheels in the CI pipeline to speed up builds.",
]


def test_merge_is_point4_keyword_plus_point6_vector_each_divided_by_its_best(store, clock, layer):
    ids = [store.write_memory(t).id for t in TEXTS]
    clock.advance(DAY)  # one day later: relevance exp(-1/30) for every memory
    q = "refresh token"
    kw = {h.id: h.score for h in store.keyword_search(q, top_k=20)}
    emb = HashingEmbedder()
    qv = emb.embed([q])[0]
    cos = {i: max(float(emb.embed([t])[0] @ qv), 0.0) for i, t in zip(ids, TEXTS)}
    decay = (1 - DECAY_WEIGHT) + DECAY_WEIGHT * math.exp(-1 / 30)
    want = {i: decay * (0.4 * kw.get(i, 0) / max(kw.values()) + 0.6 * cos[i] / max(cos.values())) for i in ids}
    want = {i: s for i, s in want.items() if s > 0}
    hits = layer.search(q, limit=10, include_related=False)
    assert [h.id for h in hits] == sorted(want, key=lambda i: (-want[i], i))
    for h in hits:
        assert h.score == pytest.approx(want[h.id], abs=1e-6)
    assert {h.id: h.match_type for h in hits}[ids[0]] == "hybrid"


def test_temporal_filter_uses_the_document_date_half_open(store, clock, layer):
    a = store.write_memory("Deploy notes on 2025-11-01: rollback of the payments service.").id
    b = store.write_memory("Deploy notes on 2025-11-08: rollback of the payments service again.").id
    c = store.write_memory("Deploy notes: rollback of the payments service, no date.").id  # recorded 2026-01-01
    got = lambda **kw: [h.id for h in layer.search("payments rollback", **kw)]
    assert sorted(got(after="2025-11-01", before="2025-11-08")) == [a]
    assert sorted(got(after="2025-11-02")) == sorted([b, c])
    assert got(before="2025-11-01") == []


def test_entity_filter_by_id_or_name(store, clock, layer):
    a = store.write_memory("Retry logic in src/features/billing/retry.ts").id
    store.write_memory("Retry logic in src/features/auth/retry.ts")
    assert [h.id for h in layer.search("retry logic", entity_filter=["feature:billing"])] == [a]
    assert [h.id for h in layer.search("retry logic", entity_filter=["billing"])] == [a]
    assert layer.search("retry logic", entity_filter=["feature:nothing"]) == []


def test_an_update_is_pulled_in_and_the_superseded_memory_demoted(store, clock, layer):
    old = store.write_memory("The zebra invoice grace period is 7 days (src/features/billing/invoice.ts).").id
    clock.advance(DAY)
    new = store.write_memory("The invoice grace period is now 14 days instead of 7 (src/features/billing/invoice.ts).").id
    assert [r.type for r in layer.relationships(new)] == ["updates"]
    plain = {h.id: h.score for h in layer.search("zebra", include_related=False, record_access=False)}
    enriched = {h.id: h for h in layer.search("zebra", record_access=False)}
    assert enriched[old].score == pytest.approx(plain[old] * 0.5)
    assert enriched[new].score == pytest.approx(max(plain.get(new, 0.0), plain[old]))
    assert list(enriched)[0] == new


def test_min_relevance_and_decay(store, clock, layer):
    old = store.write_memory("The nightly export job writes CSV files.").id
    clock.advance(60 * DAY)
    new = store.write_memory("The nightly export job writes CSV files.").id
    hits = layer.search("nightly export job", record_access=False)
    assert [h.id for h in hits] == [new, old]  # same text: the older one decayed
    assert hits[1].components["relevance"] == pytest.approx(math.exp(-2), abs=1e-6)
    assert [h.id for h in layer.search("nightly export job", min_relevance=0.5)] == [new]


def test_search_records_access_and_three_recalls_make_a_memory_hot(store, clock, layer):
    mid = store.write_memory("Use ruff for linting.").id
    assert layer.temporal(mid).layer == "warm" and layer.temporal(mid).access_count == 0
    for _ in range(3):
        clock.advance(3600)
        layer.search("ruff linting")
    t = layer.temporal(mid)
    assert (t.access_count, t.layer, t.last_accessed) == (3, "hot", clock.now())
    clock.advance(40 * DAY)
    layer.refresh()
    # exp(-40/30) + ln(4)/10 = 0.402 -> warm
    assert layer.temporal(mid).layer == "warm"


@pytest.mark.parametrize("kw,msg", [
    ({"limit": 0}, "limit"), ({"after": "soon"}, "temporalFilter.after"),
    ({"entity_filter": "feature:auth"}, "entityFilter"), ({"min_relevance": "high"}, "minRelevance"),
])
def test_bad_arguments(layer, kw, msg):
    with pytest.raises(KnowledgeError, match=msg):
        layer.search("x", **kw)


def test_relevance_read_equals_the_temporal_rows_relevance_through_accesses(store, clock, layer):
    from reference.knowledge import temporal_table
    from reference.knowledge.hybrid import _relevances
    ids = [store.write_memory(t).id for t in TEXTS]
    clock.advance(3 * DAY)
    layer.search("refresh token", limit=2)        # records accesses: last_accessed and counts move
    clock.advance(5 * DAY)
    conn, now = store.tracker.conn(), clock.now()
    want = {m: temporal_table.relevance_now(t, now) for m, t in temporal_table.get_many(conn, ids).items()}
    got = _relevances(conn, ids + ["mem:00000000"], now)
    assert got == want and len(got) == len(ids)           # same floats; an id without a row is left out
    assert len(set(got.values())) > 1                     # accessed and untouched memories differ
