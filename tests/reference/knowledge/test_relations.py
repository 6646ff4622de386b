"""Relationship rules through a real store: updates, extends, relates_to, derives, and what must not link."""
from reference.embed import HashingEmbedder
from reference.knowledge import KnowledgeLayer
from reference.knowledge.relations import MARKER_MIN_SIMILARITY, RELATE_THRESHOLD, UPDATE_THRESHOLD

DAY = 86_400.0

FACT = "Billing retries failed charges 3 times before marking the invoice unpaid (src/features/billing/retry.ts)."


def cos(a: str, b: str) -> float:
    v = HashingEmbedder().embed([a, b])
    return float(v[0] @ v[1])


def write(store, clock, text, days=1.0):
    clock.advance(days * DAY)
    return store.write_memory(text).id


def links(layer, mid):
    return {(r.target_id, r.type) for r in layer.relationships(mid) if r.source_id == mid}


def test_value_change_is_an_update_and_restatement_with_addition_extends(store, clock, layer):
    a = write(store, clock, FACT)
    new = FACT.replace("3 times", "5 times")
    assert cos(FACT, new) > UPDATE_THRESHOLD  # precondition of the similarity rule
    b = write(store, clock, new)
    assert links(layer, b) == {(a, "updates")}
    (rel,) = layer.relationships(b)
    assert rel.metadata["reason"] == "value" and abs(rel.confidence - cos(FACT, new)) < 1e-5
    ext = FACT + " It also logs every retry to the audit table."
    assert cos(FACT, ext) > UPDATE_THRESHOLD and cos(new, ext) > UPDATE_THRESHOLD
    c = write(store, clock, ext)
    assert links(layer, c) == {(a, "extends"), (b, "updates")}  # against b the count differs: a value change


def test_same_sentence_about_another_file_is_only_related(store, clock, layer):
    text_a = ("Added unit tests for src/features/auth/session.ts covering the error paths, the retry paths and the "
              "timeout paths; they run in the nightly job on every merge to main and on every release branch.")
    a = write(store, clock, text_a)
    text_b = text_a.replace("auth/session.ts", "billing/invoice.ts")
    b = write(store, clock, text_b)
    sim = cos(store.get_memory(a).text, text_b)
    assert sim > UPDATE_THRESHOLD
    (rel,) = layer.relationships(b)
    assert (rel.target_id, rel.type, rel.metadata.get("differentSubjects")) == (a, "relates_to", True)


def test_shared_entity_relates_and_unrelated_memories_do_not(store, clock, layer):
    a = write(store, clock, "Fixed a crash in sessionGuard.check() when the cookie is missing (src/features/auth/session.ts).")
    b = write(store, clock, "Wrote down the deploy checklist for Friday evenings.")
    text_c = "Profiled src/features/auth/session.ts under load; the JSON parsing dominates."
    c = write(store, clock, text_c)
    assert cos(store.get_memory(a).text, text_c) <= RELATE_THRESHOLD  # so only the shared entity links them
    rels = {r.target_id: r for r in layer.relationships(c) if r.source_id == c}
    assert set(rels) == {a}
    assert rels[a].type == "relates_to" and rels[a].confidence == 0.6
    assert rels[a].metadata["sharedEntities"] == ["feature:auth", "file:src/features/auth/session.ts"]
    assert layer.relationships(b) == []


def test_marker_rule_catches_a_reworded_update_and_extension(store, clock, layer):
    a = write(store, clock, "The session token lifetime is 15 minutes, set in src/features/auth/session.ts by authClient.refresh.")
    b = write(store, clock, "Unrelated: the CI cache key now includes the lockfile hash.")
    upd = "authClient.refresh now uses a lifetime of 60 minutes instead of 15."
    assert cos(store.get_memory(a).text, upd) <= UPDATE_THRESHOLD  # the similarity rule alone cannot call it
    c = write(store, clock, upd)
    rel = {r.target_id: r for r in layer.relationships(c) if r.source_id == c}[a]
    assert rel.type == "updates" and rel.metadata["reason"] in ("marker:now uses", "marker:instead of")
    ext = "More on authClient.refresh and the session token lifetime: it also writes an audit event."
    assert MARKER_MIN_SIMILARITY <= cos(store.get_memory(a).text, ext) <= UPDATE_THRESHOLD  # the marker decides
    d = write(store, clock, ext)
    assert (a, "extends") in links(layer, d) or (c, "extends") in links(layer, d)
    assert all(t != b for t, _ in links(layer, c) | links(layer, d))


def test_a_git_revert_updates_the_commit_it_reverts(store, clock, layer):
    subject = "Use a pooled transport in httpx/_client.py (#369)"
    files = "\n\nFiles: httpx/_client.py, tests/test_client.py"
    a = write(store, clock, subject + files)
    b = write(store, clock, "Tidy the timeout docs in httpx/_client.py (#370)" + files)   # same files, not reverted
    revert = f'Revert "{subject}" (#423)\n\nThis reverts commit 71cbde8ba4cab32dd96ccb91e9db20216587fae9.' + files
    assert cos(subject + files, revert) <= UPDATE_THRESHOLD  # the similarity rule alone cannot call it
    c = write(store, clock, revert)
    rels = {r.target_id: r for r in layer.relationships(c) if r.source_id == c}
    assert rels[a].type == "updates" and rels[a].metadata["reason"] == "marker:revert"
    assert rels[b].type == "relates_to"


def test_no_derives_without_a_conclusion_marker(store, clock, layer):
    a = write(store, clock, "tokenStore.rotate runs every 15 minutes.")
    write(store, clock, "retryPolicy.nextDelay waits up to 20 minutes between charge retries.")
    plain = write(store, clock, "tokenStore.rotate and retryPolicy.nextDelay were both touched in the release.")
    assert {ty for _, ty in links(layer, plain)} == {"relates_to"} and (a, "relates_to") in links(layer, plain)


def test_derives_from_the_two_memories_it_combines(store, clock, layer):
    a = write(store, clock, "tokenStore.rotate runs every 15 minutes.")
    b = write(store, clock, "retryPolicy.nextDelay waits up to 20 minutes between charge retries.")
    e = write(store, clock, "Combining tokenStore.rotate with retryPolicy.nextDelay, therefore a retry can outlive a token.")
    derived = {r.target_id: (r.metadata["via"], r.confidence) for r in layer.relationships(e) if r.type == "derives"}
    assert derived == {a: ("symbol:tokenstore.rotate", 0.7), b: ("symbol:retrypolicy.nextdelay", 0.7)}


def test_derives_needs_a_conclusion_marker_and_two_sources(store, clock, layer):
    a = write(store, clock, "tokenStore.rotate runs every 15 minutes.")
    b = write(store, clock, "retryPolicy.nextDelay waits up to 20 minutes between charge retries.")
    one = write(store, clock, "Therefore tokenStore.rotate is the bottleneck.")  # one source only
    assert (a, "derives") not in links(layer, one)
    d = write(store, clock, "Combining retryPolicy.nextDelay with the lunch menu, hence nothing.")
    assert (b, "derives") not in links(layer, d)
    e = write(store, clock, "Combining tokenStore.rotate with retryPolicy.nextDelay, therefore a retry can outlive a token.")
    via = {r.target_id: r.metadata.get("via") for r in layer.relationships(e) if r.type == "derives"}
    # the holder sharing the most of e's entities wins each entity: `one` and `d` share one each, like a and b,
    # so the newest holder is chosen
    assert via == {one: "symbol:tokenstore.rotate", d: "symbol:retrypolicy.nextdelay"}


def test_delete_drops_links_mentions_time_and_orphan_entities(store, clock, layer):
    a = write(store, clock, "Fixed src/features/auth/session.ts")
    b = write(store, clock, "Refactored src/features/auth/session.ts again")
    assert [t for t, _ in links(layer, b)] == [a]
    store.delete_memory(b)
    assert layer.relationships(a) == [] and layer.temporal(b) is None and layer.mentions(b) == []
    store.delete_memory(a)
    assert layer.entities() == []  # nothing mentions them any more


def test_backfill_gives_the_same_links_as_live_writes(tmp_path, clock):
    from reference.clock import LogicalClock
    from reference.store import MemoryStore
    texts = [FACT, FACT.replace("3 times", "5 times"), "Profiled src/features/billing/retry.ts at noon.",
             FACT + " It also logs every retry.", "Unrelated note about lunch."]
    results = []
    for live in (True, False):
        c = LogicalClock(clock.now())
        s = MemoryStore.open(tmp_path / f"s{live}", clock=c)
        if live:
            KnowledgeLayer.for_store(s)
        for t in texts:
            c.advance(DAY)
            s.write_memory(t)
        layer = KnowledgeLayer.for_store(s)  # backfills when created late
        conn = s.tracker.conn()
        results.append(conn.execute("SELECT source_id, target_id, type, confidence FROM relationships "
                                    "ORDER BY source_id, target_id").fetchall())
        results.append(conn.execute("SELECT document_id, entity_id, position FROM entity_mentions "
                                    "ORDER BY document_id, position").fetchall())
        s.close()
    assert results[0] == results[2] and results[1] == results[3] and results[0]


def test_one_template_about_two_components_is_only_related(store, clock, layer):
    """Notes from one sentence template naming two components (the planted tests' synthetic scenario):
    only the name and a number differ, so the value rule alone would call the newer an update."""
    text_a = ("Component comp3 handles the schema, cache and queue path of the ingest service; its queue step failed "
              "once in build 1003.")
    text_b = text_a.replace("comp3", "comp23").replace("1003", "1023")
    assert cos(text_a, text_b) > UPDATE_THRESHOLD   # precondition: the similarity rule sees them
    a = write(store, clock, text_a)
    b = write(store, clock, text_b)
    (rel,) = layer.relationships(b)
    assert (rel.target_id, rel.type, rel.metadata.get("differentSubjects")) == (a, "relates_to", True)
    # the same component's note with another value is still an update of it
    c = write(store, clock, text_b.replace("build 1023", "build 1031"))
    assert links(layer, c) == {(b, "updates"), (a, "relates_to")}


def test_a_value_change_without_names_is_still_an_update(store, clock, layer):
    a = write(store, clock, "The payment client uses 3 retries before it gives up on the gateway.")
    b = write(store, clock, "The payment client uses 5 retries before it gives up on the gateway.")
    (rel,) = layer.relationships(b)
    assert (rel.target_id, rel.type, rel.metadata["reason"]) == (a, "updates", "value")


def test_one_sentence_declared_about_two_entities_is_only_related(store, clock, layer):
    """Memory Lane's notes: one sentence per topic, a number differing by feature; only the writer's
    declared entities (seed 004 `metadata.entity_slugs`) tell the features apart."""
    text = "Request retries: we decided to cap them at {} attempts, then show the error."
    auth = store.write_memory(text.format(2), metadata={"entity_slugs": ["feature:auth"]}).id
    clock.advance(DAY)
    billing = store.write_memory(text.format(3), metadata={"entity_slugs": ["feature:billing"]}).id
    assert cos(text.format(2), text.format(3)) > UPDATE_THRESHOLD
    (rel,) = layer.relationships(billing)
    assert (rel.target_id, rel.type, rel.metadata.get("differentSubjects")) == (auth, "relates_to", True)
    clock.advance(DAY)   # the same feature's later value is an update; a slug as a bare string declares nothing
    later = store.write_memory(text.format(5), metadata={"entity_slugs": ["Feature:Billing", "feature:x"]}).id
    assert links(layer, later) == {(billing, "updates"), (auth, "relates_to")}
    clock.advance(DAY)
    plain = store.write_memory(text.format(7), metadata={"entity_slugs": "feature:auth"}).id
    assert links(layer, plain) == {(auth, "updates"), (billing, "updates"), (later, "updates")}


def test_declared_subjects_link_a_batch_as_one_by_one(tmp_path):
    """A batch's entries read each other's declared entities from the rows written before them."""
    from reference.clock import LogicalClock
    from reference.store import MemoryStore
    text = "Request retries: we decided to cap them at {} attempts, then show the error."
    recs = [{"text": text.format(n), "metadata": {"entity_slugs": [f"feature:{f}"]}}
            for n, f in [(2, "auth"), (3, "billing"), (5, "billing"), (7, "auth")]]

    def links_of(name, batch):
        s = MemoryStore.open(tmp_path / name, clock=LogicalClock(1_767_225_600.0))
        layer = KnowledgeLayer.for_store(s)
        ids = [e.id for e in s.write_memories(recs)] if batch else [s.write_memory(**r).id for r in recs]
        out = sorted((ids.index(r.source_id), ids.index(r.target_id), r.type)
                     for i in ids for r in layer.relationships(i) if r.source_id == i)
        s.close()
        return out

    one_by_one = links_of("single", False)
    assert (2, 1, "updates") in one_by_one and (3, 0, "updates") in one_by_one and (1, 0, "relates_to") in one_by_one
    assert links_of("batch", True) == one_by_one
