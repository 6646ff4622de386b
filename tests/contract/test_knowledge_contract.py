"""Contract of `knowledge` (seed 001): entities, relationships, timeline, hybrid search and learn.

What the `knowledge` scenario relies on, following the entity rules of reference/knowledge/README.md
as the specification (a path names its file and, under `src/features/<f>/`, the slug `feature:<f>`):
- `oracle_entities(document_id=m)` gives the entities memory m names (ids such as
  `file:src/features/auth/session.py`, `feature:auth`); `oracle_entities(type=t)` only entities of
  type t, every entity named so far among them.
- `oracle_relationships(m)` gives m's relationships {source_id, target_id, type}; a note that
  restates an earlier one with a new value and a marker ("now 45 ... instead of 30") `updates` it;
  `type=` keeps one type; an unknown type is refused with ValueError naming it.
- `oracle_timeline(after, before)` gives the memories whose date falls in [after, before) (ISO
  dates or Unix seconds), oldest first.
- `oracle_search(query)` ranks the memory that answers first (scores never increase down the list);
  `entity_filter` keeps only memories naming one of the entities; `after`/`before` keep only
  memories dated in the window.
- `oracle_learn(pattern, concepts)` stores a learning and returns its id; its concepts are entities
  `concept:<name lowercased>` of it.
"""
from datetime import datetime, timezone

import pytest

from bench.backends import Capability as C

CAPABILITY = C.KNOWLEDGE
DAY = 86400


def _day(ts: float) -> str:
    return datetime.fromtimestamp(ts, tz=timezone.utc).date().isoformat()


def _ids(rows):
    return [r["id"] for r in rows]


def test_entities_of_a_memory_and_by_type(backend, backend_clock):
    backend_clock.advance(DAY)
    mid = backend.write_memory("The refresh window in src/features/kauth/session.py is 30 minutes.")
    named = set(_ids(backend.oracle_entities(document_id=mid)))
    assert {"file:src/features/kauth/session.py", "feature:kauth"} <= named
    backend.write_memory("Invoices in src/features/kbilling/invoice.py round half-even.")
    features = backend.oracle_entities(type="feature", limit=1000)
    assert {"feature:kauth", "feature:kbilling"} <= set(_ids(features))
    assert all(r["type"] == "feature" for r in features)


def test_an_update_with_a_marker_is_an_updates_relationship(backend, backend_clock):
    backend_clock.advance(DAY)
    old = backend.write_memory(
        "The upload timeout in src/features/kupload/client.py is 30 seconds; UploadClient reads it.")
    backend_clock.advance(DAY)
    new = backend.write_memory(
        "The upload timeout in src/features/kupload/client.py is now 45 seconds instead of 30; UploadClient reads it.")
    rels = backend.oracle_relationships(new)
    assert {(r["source_id"], r["target_id"], r["type"]) for r in rels} >= {(new, old, "updates")}
    assert all(r["type"] == "updates" for r in backend.oracle_relationships(new, "updates"))
    assert old in {r["target_id"] for r in backend.oracle_relationships(new, "updates")}
    with pytest.raises(ValueError, match="likes"):
        backend.oracle_relationships(new, "likes")


def test_timeline_windows_are_half_open_and_oldest_first(backend, backend_clock):
    backend_clock.advance(30 * DAY)   # days no other test of the module writes in
    ids, days = [], []
    for n in range(3):
        ids.append(backend.write_memory(f"Timeline note {n} about the kcache eviction policy."))
        days.append(backend_clock.now())
        backend_clock.advance(DAY)
    assert _ids(backend.oracle_timeline(after=_day(days[0]), before=_day(days[2]))) == ids[:2]
    assert _ids(backend.oracle_timeline(after=_day(days[1]), before=_day(days[2] + DAY))) == ids[1:]
    assert _ids(backend.oracle_timeline(after=days[0], before=days[1])) == ids[:1]
    assert backend.oracle_timeline(after=_day(days[2] + DAY), before=_day(days[2] + 2 * DAY)) == []


def test_search_ranks_the_answer_first_and_honours_its_filters(backend, backend_clock):
    backend_clock.advance(DAY)
    pool = backend.write_memory("The connection pool in src/features/kdb/pool.py holds 12 connections per worker.")
    backend_clock.advance(3 * DAY)
    retry = backend.write_memory("Webhook deliveries in src/features/khooks/deliver.py retry 7 times with backoff.")
    hits = backend.oracle_search("how many connections does the pool hold per worker", limit=5)
    assert hits and hits[0]["id"] == pool
    assert all(a["score"] >= b["score"] for a, b in zip(hits, hits[1:]))
    only = backend.oracle_search("how many times do webhook deliveries retry", limit=10,
                                 entity_filter=["feature:kdb"])
    assert pool in _ids(only) and retry not in _ids(only)
    window = backend.oracle_search("connection pool and webhook retries", limit=10,
                                   after=_day(backend_clock.now()), before=_day(backend_clock.now() + DAY))
    assert retry in _ids(window) and pool not in _ids(window)


def test_learn_stores_a_learning_with_its_concepts(backend, backend_clock):
    backend_clock.advance(DAY)
    mid = backend.oracle_learn("Always pin the lock file before caching wheels", ["Caching", "CI"], "Conversation c-1")
    assert isinstance(mid, str) and mid
    assert {"concept:caching", "concept:ci"} <= set(_ids(backend.oracle_entities(document_id=mid)))
    assert mid in _ids(backend.oracle_search("pin the lock file before caching wheels", limit=5))
