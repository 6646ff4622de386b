"""A nondeterministic server's gate: its adapter's measured tolerance passes run-to-run noise, not a broken adapter.

The committed baseline of each server whose adapter declares a [gate] is gated against copies of itself:
one with noise of the size the tolerance was chosen for (a check and one query flipped), one as a broken
adapter leaves it (every search answer read from the wrong field: nothing retrieved). No server is started.
"""
import copy
import json
from pathlib import Path

import pytest

from bench.backends.mcp.adapter import adapter_names, load_adapter
from bench.backends.mcp.gate_policy import adapter_gate
from bench.cli.main import main
from tests.bench.gate.report_edits import emptied, one_query_missed, saved

BASELINE = Path(__file__).parents[3] / "reports" / "baseline" / "mcp-basic-memory" / "report.json"
# every built-in adapter with a [gate] table (a measured tolerance): each must have a committed baseline
GATED = tuple(n for n in adapter_names() if load_adapter(n).gate is not None)


def _baseline(adapter: str) -> Path:
    return BASELINE.parents[1] / f"mcp-{adapter}" / "report.json"


def _noisy(report: dict, drop: float) -> dict:
    """Unchanged code, another run: one query of the largest scenario misses its note, a check rate dips."""
    out = copy.deepcopy(report)
    one_query_missed(out)
    checked = next(s for s in out["scenarios"].values() if s["checks"]["rate"] > drop)
    checked["checks"]["rate"] -= drop
    return out


def test_every_adapter_with_a_gate_table_has_a_committed_baseline():
    assert "basic-memory" in GATED and "basic-memory-semantic" in GATED
    assert [a for a in GATED if not _baseline(a).is_file()] == []


def test_only_adapters_with_a_gate_table_have_a_policy():
    policy = adapter_gate("mcp:basic-memory")
    assert policy is not None and policy.latency and 0.01 < policy.min_effect < 0.2
    assert policy.min_effect == load_adapter("basic-memory").gate.min_effect
    assert adapter_gate("mcp:server-memory") is None and adapter_gate("reference") is None
    assert adapter_gate("reference-mcp") is None and adapter_gate("mcp:not-an-adapter") is None


@pytest.mark.parametrize("adapter", GATED)
def test_noise_within_the_tolerance_passes_and_the_default_gate_would_cry_wolf(tmp_path, capsys, adapter):
    path = _baseline(adapter)
    baseline = json.loads(path.read_text())
    assert baseline["backend"] == f"mcp:{adapter}"
    tolerance = adapter_gate(f"mcp:{adapter}").min_effect
    noisy = saved(_noisy(baseline, drop=tolerance * 0.8), tmp_path / "noisy")
    assert main(["gate", str(noisy), "--baseline", str(path.parent)]) == 0
    assert f"{adapter}.toml [gate]" in capsys.readouterr().out
    # the same report under the deterministic default (0.01) fails: the tolerance is what lets it pass
    assert main(["gate", str(noisy), "--baseline", str(path.parent), "--min-effect", "0.01"]) == 1


@pytest.mark.parametrize("adapter", GATED)
def test_a_broken_adapter_fails_the_gate(tmp_path, capsys, adapter):
    path = _baseline(adapter)
    broken = saved(emptied(json.loads(path.read_text())), tmp_path / "broken")
    assert main(["gate", str(broken), "--baseline", str(path.parent)]) == 1
    out = capsys.readouterr().out
    assert "gate: FAIL" in out and "ndcg@10" in out


def test_latency_is_not_gated_when_the_adapter_says_so(tmp_path, capsys, monkeypatch):
    own = tmp_path / "adapters"
    own.mkdir()
    text = (Path(load_adapter("basic-memory").source)).read_text()
    assert "latency = true" in text
    (own / "basic-memory.toml").write_text(text.replace("latency = true", "latency = false"))
    monkeypatch.setenv("CODEMEM_BENCH_ADAPTERS", str(own))   # a user's copy overrides the built-in
    baseline = json.loads(BASELINE.read_text())
    # one machine and one job (a same-job recipe): latency would be gated by default
    baseline["environment"] = {**baseline["environment"], "job": "same-job"}
    base = saved(baseline, tmp_path / "base")
    report = copy.deepcopy(baseline)
    for scenario in report["scenarios"].values():
        scenario["latency_samples_ms"] = {k: [v * 10 for v in vs] if isinstance(vs, list) else vs
                                          for k, vs in scenario.get("latency_samples_ms", {}).items()}
    slow = saved(report, tmp_path / "slow")
    assert main(["gate", str(slow), "--baseline", str(base)]) == 0
    assert "latency off" in capsys.readouterr().out
    # a threshold named on the command line is still honoured: the tenfold slowdown is caught
    assert main(["gate", str(slow), "--baseline", str(base), "--latency", "reads.p10:100%:2ms"]) == 1
