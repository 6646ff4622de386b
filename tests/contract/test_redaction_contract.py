"""Contract of `redaction` (seed 002: secrets are redacted before storage, on every write path).

A secret planted in what is written never reads back, whichever read is used, while the rest of
the text is kept: `get_memory`, `list_memories`, and `search_memories` (a search for the secret must
not rank the memory above the same words without it). Write paths: text, tags and metadata; with
`memory_lane`, lane memories (find and inject); with `knowledge`, learnings; with `project_memory`,
commit messages and session placeholders. With `patterns`, `pat:secrets` finds nothing left in the
stored memories. The secrets are the planted ones of the `patterns` scenario, each a secret by the
built-in definitions of `pat:secrets`.
"""
import json

from bench.backends import Capability as C

from tests.contract.conftest import need

CAPABILITY = C.REDACTION

SECRETS = [
    "AKIAIOSFODNN7EXAMPLE",
    "ghp_" + "x1Y2z3" * 6,
    "xoxb-123456789012-123456789012-abcdefghijklmnopqrstuvwx",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk",
    "glpat-" + "AbCdEfGhIjKlMnOpQrSt",
]


def _incident(n, secret):
    return f"Incident {n}: a credential {secret} was pasted into the deploy log; it has been rotated."


def test_a_planted_secret_never_reads_back_from_a_memory(backend, backend_clock):
    need(backend, C.MEMORY_WRITE, C.MEMORY_GET)
    ids = []
    for n, secret in enumerate(SECRETS):
        backend_clock.advance(1)
        ids.append(backend.write_memory(_incident(n, secret), task="task:security_review", tags=["incident"]))
    for n, (mid, secret) in enumerate(zip(ids, SECRETS)):
        record = backend.get_memory(mid)
        assert record is not None and secret not in json.dumps(record)
        assert f"Incident {n}: a credential" in record["text"] and "deploy log" in record["text"]
    if C.MEMORY_LIST in backend.capabilities:
        listed = json.dumps(backend.list_memories(limit=1000))
        assert all(mid in listed for mid in ids) and not any(s in listed for s in SECRETS)


def test_a_search_for_the_secret_does_not_find_it(backend, backend_clock):
    need(backend, C.MEMORY_WRITE, C.MEMORY_SEARCH)
    secret = "AKIA" + "Q7ZR2M4KX9PLW3NB"
    backend_clock.advance(1)
    planted = backend.write_memory(f"Staging uses {secret} for the uploader, rotate it monthly.")
    control = backend.write_memory("Staging uses a vault entry for the uploader, rotate it monthly.")
    hits = {h.id: h.score for h in backend.search_memories(secret, top_k=50)}
    # the planted memory may come back by its other words, never above the same words without the secret
    assert planted not in hits or hits.get(control, float("-inf")) >= hits[planted]
    if C.KEYWORD_SEARCH in backend.capabilities:
        assert planted not in {h.id for h in backend.keyword_search(secret, top_k=50)}


def test_pat_secrets_finds_nothing_left_in_stored_memories(backend, backend_clock):
    need(backend, C.MEMORY_WRITE, C.PATTERNS)
    for n, secret in enumerate(SECRETS):
        backend_clock.advance(1)
        backend.write_memory(_incident(100 + n, secret), task="task:security_review")
    assert backend.pattern_scan_memories("pat:secrets") == {}
    assert backend.pattern_scan_memories("pat:secrets", task="task:security_review") == {}


def test_a_secret_in_a_commit_message_is_gone_from_project_memory(backend, backend_clock):
    need(backend, C.PROJECT_MEMORY)
    backend.project_switch_branch("main", None, True)
    backend_clock.advance(1)
    out = backend.project_record_commit("ab" * 20, None, ["deploy/settings.py"],
                                        f"Rotate the leaked key {SECRETS[0]}\n\nThe token {SECRETS[1]} is revoked.")
    record = backend.project_get(out["memory_id"])
    assert record is not None and "Rotate the leaked key" in record["text"]
    assert not any(s in json.dumps(record) for s in SECRETS[:2])
    ph = backend.project_placeholder("contract-redact", f"Asked whether {SECRETS[2]} must be rotated too", "chat")
    record = backend.project_get(ph["memory_id"])
    assert record is not None and "must be rotated too" in record["text"] and SECRETS[2] not in json.dumps(record)


def test_a_secret_in_tags_or_metadata_never_reads_back(backend, backend_clock):
    need(backend, C.MEMORY_WRITE, C.MEMORY_GET)
    backend_clock.advance(1)
    mid = backend.write_memory("The deploy bot's settings.", tags=["deploy", SECRETS[0]],
                               metadata={"token": SECRETS[1], "owner": "platform"})
    record = backend.get_memory(mid)
    assert not any(s in json.dumps(record) for s in SECRETS[:2])
    assert "deploy" in record["tags"] and record["metadata"]["owner"] == "platform"


def test_lane_and_learn_write_paths_redact_too(backend, backend_clock):
    caps = backend.capabilities
    if C.MEMORY_LANE not in caps and C.KNOWLEDGE not in caps:
        need(backend, C.MEMORY_LANE)   # skips, naming what is missing
    backend_clock.advance(1)
    if C.MEMORY_LANE in caps:
        mid = backend.lane_store(f"Kvault key {SECRETS[2]} was leaked and rotated.", "correction", ["feature:kvault"])
        found = json.dumps(backend.lane_find("kvault key leaked rotated", None, 5))
        assert mid in found and SECRETS[2] not in found
        block = json.dumps(backend.lane_inject("kvault key leaked rotated", "contract-redact", 3))
        assert mid in block and SECRETS[2] not in block
    if C.KNOWLEDGE in caps:
        learned = backend.oracle_learn(f"Never paste {SECRETS[3]} into logs", ["Secrets"],
                                       f"Conversation with token {SECRETS[4]}")
        if C.MEMORY_GET in caps:
            record = json.dumps(backend.get_memory(learned))
            assert "Never paste" in record and SECRETS[3] not in record and SECRETS[4] not in record
        hits = json.dumps(backend.oracle_search("never paste into logs", limit=5))
        assert learned in hits and SECRETS[3] not in hits
