"""Contract of `policy.kv` (seed 003 §4.3, §5.1): decisions, constraints and procedures by scope/namespace/key.

- `policy_put(scope, namespace, key, payload)` then `policy_get` gives the payload (any JSON value);
  a later put replaces it; a key never put reads as None.
- `policy_list(scope, namespace)` maps every key of that scope and namespace to its latest payload;
  other scopes and namespaces are not mixed in.
- History: every put is kept, so a read `at` the time of an earlier put sees that payload (needs
  `point_in_time` too).
- Decisions persist across runs: they are there after close and reopen.
"""
from bench.backends import Capability as C

from tests.contract.conftest import need

CAPABILITY = C.POLICY_KV


def test_put_then_get_and_overwrite(backend, backend_clock):
    backend_clock.advance(1)
    backend.policy_put("repo:k1", "decision", "errors", {"style": "typed exceptions", "rev": 1})
    assert backend.policy_get("repo:k1", "decision", "errors") == {"style": "typed exceptions", "rev": 1}
    backend_clock.advance(1)
    backend.policy_put("repo:k1", "decision", "errors", ["result types", 2])
    assert backend.policy_get("repo:k1", "decision", "errors") == ["result types", 2]
    assert backend.policy_get("repo:k1", "decision", "never-put") is None


def test_list_keeps_scopes_and_namespaces_apart(backend, backend_clock):
    backend_clock.advance(1)
    backend.policy_put("repo:k2", "procedure", "test", {"cmd": "pytest -q"})
    backend.policy_put("repo:k2", "procedure", "lint", {"cmd": "ruff check"})
    backend.policy_put("repo:k2", "constraint", "api", {"rule": "no breaking changes"})
    backend.policy_put("repo:k2-other", "procedure", "test", {"cmd": "tox"})
    assert backend.policy_list("repo:k2", "procedure") == {"lint": {"cmd": "ruff check"}, "test": {"cmd": "pytest -q"}}
    assert backend.policy_list("repo:k2", "constraint") == {"api": {"rule": "no breaking changes"}}
    assert backend.policy_list("repo:k2-other", "procedure") == {"test": {"cmd": "tox"}}
    assert backend.policy_list("repo:k2", "decision") == {}


def test_history_of_a_key_stays_readable(backend, backend_clock):
    need(backend, C.POINT_IN_TIME)
    revisions = []
    for rev in range(1, 4):
        backend_clock.advance(1)
        backend.policy_put("repo:k3", "decision", "style", {"rev": rev})
        revisions.append(backend_clock.now())
    assert [backend.policy_get("repo:k3", "decision", "style", at=t) for t in revisions] == [
        {"rev": 1}, {"rev": 2}, {"rev": 3}]


def test_decisions_persist_across_runs(module_store, backend_clock):
    backend_clock.advance(1)
    module_store.backend.policy_put("repo:k4", "decision", "db", {"engine": "sqlite"})
    again = module_store.reopen()
    assert again.policy_get("repo:k4", "decision", "db") == {"engine": "sqlite"}
    assert again.policy_list("repo:k4", "decision") == {"db": {"engine": "sqlite"}}
