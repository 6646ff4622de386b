"""A backend lacking a capability is reported unsupported: never a crash, never a silent pass."""
from bench.backends.capabilities import Capability as C
from bench.backends.reference.backend import ReferenceBackend
from bench.backends.registry import register_backend
from bench.run import run_suite
from bench.scenario.suites import resolve


class WriteOnly(ReferenceBackend):
    """The reference store declaring only writes, reads and lists: search steps must be unsupported."""

    name = "test-write-only"
    capabilities = frozenset({C.MEMORY_WRITE, C.MEMORY_GET, C.MEMORY_LIST, C.MEMORY_FILTERS})
    options = ()


def test_undeclared_capability_is_unsupported_and_scores_zero(tmp_path):
    register_backend("test-write-only", WriteOnly)
    (smoke,) = resolve(["smoke"])
    report = run_suite("test-write-only", [smoke], tmp_path)
    s = report.scenarios["smoke"]
    searches = sum(1 for st in smoke.steps if st.name in ("memory_search_structured", "memory_search"))
    assert s["steps"]["unsupported"] == searches > 0
    assert s["quality"]["unsupported_queries"] == s["quality"]["queries"] and s["quality"]["ndcg@10"] == 0.0
    # the search steps' own checks (count, ids, ...) count as failed, so the smoke target is not met
    assert s["checks"]["rate"] < 1.0 and s["targets"][0]["met"] is False
    assert s["steps"]["error"] == 0
    full = run_suite("reference", [smoke], tmp_path / "ref")
    assert report.score["value"] < full.score["value"]
