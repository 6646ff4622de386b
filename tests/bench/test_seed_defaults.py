"""The seed-default figure beside the tuned one: the backend option, which scenarios replay, every report surface."""
from __future__ import annotations

import json
import math

import pytest

from bench.backends.registry import create_backend
from bench.calibration.knowledge import SEED
from bench.cli.main import main
from bench.report import Report
from bench.scenario import load_scenario
from bench.seed_defaults import affected, attach, seed_spec
from reference.clock import LogicalClock
from reference.rankers import DEFAULT_RANKER
from reference.telemetry import NullSink
from reference.tuning import SEED_DEFAULTS

DAY = 86_400


def test_the_seed_values_are_the_ones_calibrate_ties_to():
    assert SEED_DEFAULTS.lane_floors == (SEED["floor"], round(0.8 * SEED["floor"], 4))
    assert (SEED_DEFAULTS.relate_threshold, SEED_DEFAULTS.decay_weight) == (SEED["relate"], SEED["decay"])
    assert SEED_DEFAULTS.update_threshold == SEED["update"]


@pytest.mark.parametrize("spec, ranker, seeded", [("reference", DEFAULT_RANKER, False),
                                                  ("reference:seed-defaults", DEFAULT_RANKER, True),
                                                  ("reference:rrf+seed-defaults", "rrf", True),
                                                  ("reference:memory-lane", "memory-lane", False)])
def test_backend_option_opens_the_store_with_the_seed_values(tmp_path, spec, ranker, seeded):
    b = create_backend(spec)
    b.open(tmp_path / "d", LogicalClock(1_767_225_600), NullSink())
    try:
        assert b.ranker_name == ranker and b.label == spec
        assert (b.lane.floors.semantic == 0.50) is seeded
        assert (b.knowledge.decay_weight == 1.0) is seeded
    finally:
        b.close()


def test_bad_options_are_refused_with_the_known_ones():
    for bad in ("nope", "nope+seed-defaults", "rrf+seeds"):
        with pytest.raises(ValueError, match="seed-defaults"):
            create_backend(f"reference:{bad}")


def test_seed_spec_and_the_affected_scenarios(tmp_path):
    assert seed_spec("reference") == "reference:seed-defaults" == seed_spec(f"reference:{DEFAULT_RANKER}")
    assert seed_spec("reference:memory-lane") == "reference:memory-lane+seed-defaults"
    assert seed_spec("reference:galaxybrain") == "reference:galaxybrain+seed-defaults"
    assert seed_spec("reference:seed-defaults") is None and seed_spec("fts-baseline") is None
    search = _scenario(tmp_path, "plain", [{"tool": "memory_search_structured", "args": {"query": "x"}}])
    oracle = _scenario(tmp_path, "oracle", [{"tool": "oracle_search", "args": {"query": "x"}}])
    # every ranker ranks memory searches with fitted constants (the lexical ones, or Memory Lane's floors)
    for spec in ("reference", "reference:galaxybrain", "reference:rrf", "reference:memory-lane"):
        assert [s.name for s in affected([search, oracle], spec)] == ["plain", "oracle"]
    assert [s.name for s in affected([oracle, search], "reference:rrf+seed-defaults")] == ["oracle", "plain"]


def test_attach_and_every_surface_shows_both_figures():
    tuned = {"quality": {"ndcg@10": 0.9}, "checks": {"rate": 1.0}, "metrics": {"search_ndcg@10": 0.8, "other": 3}}
    seed = {"quality": {"ndcg@10": 0.7}, "checks": {"rate": 0.5}, "metrics": {"search_ndcg@10": 0.6}}
    summaries = {"k": tuned}
    attach(summaries, {"k": seed, "absent": seed}, "reference:seed-defaults")
    figs = summaries["k"]["seed_defaults"]["figures"]
    assert figs == {"ndcg@10": {"tuned": 0.9, "seed": 0.7}, "check_rate": {"tuned": 1.0, "seed": 0.5},
                    "search_ndcg@10": {"tuned": 0.8, "seed": 0.6}} and "absent" not in summaries


def test_a_run_of_the_reference_reports_the_seed_figure_beside_the_tuned_one(tmp_path, capsys):
    # an old, exact match and a fresh, looser one: weight 1.0 decays the old one below the fresh one, 0.5 does not
    steps = [{"directive": "set_clock", "time": 1_767_225_600},
             {"tool": "memory_write_structured", "as": "old", "args": {"text": "token refresh race in the auth client"}},
             {"directive": "set_clock", "time": 1_767_225_600 + 30 * DAY},
             {"tool": "memory_write_structured", "as": "new", "args": {"text": "token refresh for the auth service"}},
             {"tool": "oracle_search", "args": {"query": "token refresh race in the auth client", "limit": 2,
                                                "includeRelated": False},
              "id": "q", "expect": {"relevant": ["old"]}}]
    path = _scenario(tmp_path, "decay", steps).path
    assert main(["run", str(path), "--out", str(tmp_path / "r"), "--quiet"]) == 0
    out = capsys.readouterr().out
    data = json.loads((tmp_path / "r" / "report.json").read_text())
    sd = data["scenarios"]["decay"]["seed_defaults"]
    assert sd["backend"] == "reference:seed-defaults"
    assert sd["figures"]["ndcg@10"] == {"tuned": 1.0, "seed": pytest.approx(1 / math.log2(3), abs=1e-5)}
    assert "tuned vs seed defaults (reference:seed-defaults):" in out and "ndcg@10 1.000 / 0.631" in out
    assert "| ndcg@10 | 1.000 | 0.631 | +0.369 |" in (tmp_path / "r" / "report.md").read_text()
    html = (tmp_path / "r" / "report.html").read_text()
    assert 'id="seed-defaults"' in html and "reference:seed-defaults" in html
    assert json.loads((tmp_path / "r" / "seed-defaults" / "report.json").read_text())["backend"] == sd["backend"]
    assert Report.load(tmp_path / "r").scenarios["decay"]["seed_defaults"] == sd
    assert main(["run", str(path), "--out", str(tmp_path / "n"), "--quiet", "--no-seed-defaults"]) == 0
    assert "seed_defaults" not in json.loads((tmp_path / "n" / "report.json").read_text())["scenarios"]["decay"]


def _scenario(tmp_path, name, steps):
    p = tmp_path / f"{name}.jsonl"
    p.write_text("\n".join(json.dumps(x) for x in [{"scenario": name, "format": 1}, *steps]) + "\n")
    return load_scenario(p)
