"""KnowledgeLayer lifecycle, tables, learn, timeline and the oracle-hybrid ranker."""
import sqlite3

import pytest

from reference.clock import iso
from reference.knowledge import KnowledgeError, KnowledgeLayer
from reference.knowledge.schema import TABLES, ensure_schema, knowledge_schema
from reference.rankers import RANKERS, Query, make_ranker

DAY = 86_400.0


def test_one_layer_per_store_with_the_seed_tables(store, layer):
    assert KnowledgeLayer.for_store(store) is layer and store.extensions["knowledge"] is layer
    names = {r[0] for r in store.tracker.conn().execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert set(TABLES) <= names
    with pytest.raises(KnowledgeError, match="already exists"):
        KnowledgeLayer.for_store(store, gazetteer={"person": ["Robin"]})


def test_schema_is_idempotent_and_part_of_the_tracker_migrations(tmp_path, store):
    conn = sqlite3.connect(tmp_path / "t.db", isolation_level=None)
    knowledge_schema(conn)
    knowledge_schema(conn)  # IF NOT EXISTS throughout
    assert {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")} >= set(TABLES)
    assert ensure_schema(store.tracker) is False  # the migration already made them


def test_every_write_gets_mentions_temporal_data_and_a_layer(store, clock, layer):
    clock.set(1_769_428_800.0)  # 2026-01-26T12:00:00Z
    e = store.write_memory("Yesterday agent:claude fixed src/features/auth/session.ts.")
    assert [x.id for x in layer.document_entities(e.id)] == [
        "time:2026-01-25", "agent:claude", "file:src/features/auth/session.ts", "feature:auth"]
    ment = layer.mentions(e.id)
    assert ment[0]["surface"] == "Yesterday" and ment[0]["position"] == 0
    t = layer.temporal(e.id)
    assert (iso(t.document_date), t.date_source, t.recorded_date, t.layer) == (
        "2026-01-25T00:00:00Z", "content_relative", clock.now(), "warm")


def test_learn_stores_concepts_and_source(store, layer):
    e = layer.learn("Prefer idempotency keys over locks.", concepts=["Idempotency", " webhooks "], source="chat 7")
    assert e.metadata == {"kind": "learning", "concepts": ["Idempotency", "webhooks"], "source": "chat 7"}
    assert [x.id for x in layer.document_entities(e.id)] == ["concept:idempotency", "concept:webhooks"]
    assert [x.id for x in layer.entities(type="concept")] == ["concept:idempotency", "concept:webhooks"]
    with pytest.raises(KnowledgeError, match="pattern"):
        layer.learn("  ")
    with pytest.raises(KnowledgeError, match="concepts"):
        layer.learn("x", concepts="one")


def test_entities_are_ranked_by_documents_then_mentions(store, layer):
    store.write_memory("src/a.py and src/a.py and src/b.py")
    store.write_memory("src/b.py again")
    assert [(e.id, e.documents, e.mentions) for e in layer.entities()] == [
        ("file:src/b.py", 2, 2), ("module:src.b", 2, 2), ("file:src/a.py", 1, 2), ("module:src.a", 1, 2)]
    assert [e.id for e in layer.entities(limit=1)] == ["file:src/b.py"]


def test_timeline_orders_by_effective_date_in_a_half_open_window(store, clock, layer):
    a = store.write_memory("---\ndate: 2025-12-20\n---\nretro").id
    clock.advance(DAY)
    b = store.write_memory("plain note").id  # 2026-01-02 recorded, no document date
    c = store.write_memory("incident on 2025-12-31").id
    assert [t.document_id for t in layer.timeline()] == [a, c, b]
    assert [t.document_id for t in layer.timeline(after="2025-12-31", before="2026-01-02")] == [c]
    assert [t.document_id for t in layer.timeline(after="2025-12-31", before="2026-01-02T00:00:01Z")] == [c, b]
    assert [t.document_id for t in layer.timeline(limit=1)] == [a]


def test_oracle_hybrid_ranker_is_registered_and_honours_filters(store, clock):
    assert "oracle-hybrid" in RANKERS
    ranker = make_ranker("oracle-hybrid", store)
    a = store.write_memory("Refresh tokens rotate hourly.", task="task:debug").id
    clock.advance(60)
    b = store.write_memory("Refresh tokens rotate daily.", task="task:refactor").id
    assert [h.id for h in ranker.search(Query("refresh tokens", task="task:refactor"))] == [b]
    assert {h.id for h in ranker.search(Query("refresh tokens"))} == {a, b}
    assert ranker.search(Query("refresh tokens", options={"before": "2000-01-01"})) == []
    hit = ranker.search(Query("refresh tokens", top_k=1))[0]
    assert hit.entry is not None and hit.meta["matchType"] in ("hybrid", "keyword", "semantic")
    with pytest.raises(KnowledgeError, match="unknown option"):
        ranker.search(Query("x", options={"afterr": 1}))
    # no text: the filtered memories newest first, like the store's own search
    assert [h.id for h in ranker.search(Query(None))] == [b, a]


@pytest.mark.parametrize("default", [True, False])
def test_oracle_hybrid_follows_stored_relationships_by_its_fitted_default_or_the_option(store, clock, layer,
                                                                                        monkeypatch, default):
    from reference.rankers import oracle_hybrid
    monkeypatch.setattr(oracle_hybrid, "INCLUDE_RELATED", default)
    ranker = make_ranker("oracle-hybrid", store)
    old = store.write_memory("The zebra invoice grace period is 7 days (src/features/billing/invoice.ts).").id
    clock.advance(DAY)
    new = store.write_memory("The invoice grace period is now 14 days instead of 7 (src/features/billing/invoice.ts).").id
    assert [r.type for r in layer.relationships(new)] == ["updates"]
    # the newer version is found through the shared file either way; followed, it takes the old one's score
    # and the superseded one is demoted below it
    followed = ranker.search(Query("zebra", options={"include_related": True}))
    plain = ranker.search(Query("zebra", options={"include_related": False}))
    assert [h.id for h in followed] == [new, old] and followed[1].meta.get("superseded") == 1.0
    assert [h.id for h in plain] == [old, new] and "superseded" not in plain[0].meta
    assert [h.id for h in ranker.search(Query("zebra"))] == ([new, old] if default else [old, new])


def test_reads_name_a_bad_memory_id(layer):
    from reference.errors import InvalidKey
    for read in (layer.relationships, layer.document_entities, layer.mentions, layer.temporal):
        with pytest.raises(InvalidKey, match="not a memory id"):
            read("file:src/a.py")
    assert layer.relationships("mem:00000000") == []


def test_a_metadata_update_restates_importance_and_the_document_date(store, clock, layer):
    """The update listener: the temporal row as an ingest of the updated memory would store it; nothing written
    when the update leaves them."""
    clock.set(1_769_428_800.0)  # 2026-01-26T12:00:00Z
    e = store.write_memory("Retro: the release checklist", metadata={"importance": 1.0})
    t = layer.temporal(e.id)
    assert (t.importance, t.document_date, t.date_source) == (1.0, None, "none")
    store.update_metadata(e.id, {"importance": 2.5, "source_path": "notes/2025-10-01_retro.md"})
    t = layer.temporal(e.id)
    assert (t.importance, iso(t.document_date), t.date_source) == (2.5, "2025-10-01T00:00:00Z", "file_name")
    assert [x.document_id for x in layer.timeline(after=1_759_276_800.0, before=1_759_363_200.0)] == [e.id]
    assert layer.restate(store.get_memory(e.id)) is False     # already as the metadata gives it
    store.update_metadata(e.id, {"importance": "high"})          # not a positive number: the default, 1.0
    assert layer.temporal(e.id).importance == 1.0
