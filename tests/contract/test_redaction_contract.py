"""Contract of `redaction` (seed 002: secrets are redacted before storage, on every write path).

A secret planted in what is written never reads back, whichever read is used, while the rest of
the text is kept: `get_memory`, `list_memories` and the ids `search_memories` returns (a search for
the secret itself must not find the memory by it). With `patterns`, `pat:secrets` finds nothing left
in the stored memories. With `project_memory`, a secret in a commit message is gone from
`project_get` too. The secrets are the planted ones of the `patterns` scenario; each is a secret by
the built-in definitions of `pat:secrets`.
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
