"""Pattern steps: the reference scored on planted kinds, and unsupported on a backend without patterns."""
import pytest

from bench.run import run_suite
from bench.scenario.suites import resolve


@pytest.fixture(scope="module")
def scenario():
    (sc,) = resolve(["patterns"])
    return sc


def test_reference_is_scored_on_every_planted_kind(scenario, tmp_path):
    """The reference is scored per kind of scenarios/spec/patterns.toml; its figures are findings, not givens."""
    import tomllib
    from pathlib import Path

    spec = tomllib.loads((Path(__file__).resolve().parents[3] / "scenarios/spec/patterns.toml").read_text())
    s = run_suite("reference", [scenario], tmp_path).scenarios["patterns"]
    m = s["metrics"]
    assert s["steps"]["error"] == 0 and s["steps"]["unsupported"] == 0
    assert {f"redaction.recall.{c['kind']}" for c in spec["secret"]} <= set(m)
    assert {k for k in m if k.startswith("patterns.span_recall.")} <= {f"patterns.span_recall.{c['kind']}" for c in spec["smell"]}
    assert m["redaction.decoys_kept"] == 1.0          # commit shas and uuids are not secrets
    assert m["patterns.span_precision"] == 1.0 and m["patterns.span_recall"] >= 0.9
    assert 0.9 <= m["redaction.recall"] <= 1.0


def test_backend_without_patterns_reports_unsupported(scenario, tmp_path):
    s = run_suite("fts-baseline", [scenario], tmp_path).scenarios["patterns"]
    names = {"pattern_load", "pattern_list", "pattern_scan", "pattern_scan_memories", "jit_index_file"}
    assert s["steps"]["unsupported"] >= sum(1 for st in scenario.steps if st.name in names)
    assert s["steps"]["error"] == 0


@pytest.mark.parametrize("spec", ["reference", "reference-mcp"])
def test_scanning_a_memory_key_reads_its_text(spec, tmp_path):
    """Offsets are into the memory's text (not its JSON record), the same in-process and over MCP."""
    import json
    import re

    from bench.backends.registry import create_backend
    from reference.clock import LogicalClock
    from reference.keys import hash64
    from reference.patterns import BUILTIN_DIR
    from reference.telemetry import NullSink

    text = 'the handler calls eval(payload) and then exec("cleanup()") with password = "x"'
    patterns = json.loads((BUILTIN_DIR / "security-smells.json").read_text())["patterns"]
    want = sorted(([i, m.start(), m.end()] for i, p in enumerate(patterns) for m in re.finditer(p.encode(), text.encode())),
                  key=lambda x: (x[1], x[0]))
    backend = create_backend(spec)
    backend.open(tmp_path / "s", LogicalClock(), NullSink())
    try:
        mid = backend.write_memory(text, task="task:security_review")
        assert backend.pattern_scan("pat:security-smells", hash64(mid)) == want
    finally:
        backend.close()
    assert len(want) >= 3  # eval, exec and the quoted password all matched
