"""bench.calibration.oracle_search: the search oracle_search runs, patched for a replay; ties go to the seed's."""
from __future__ import annotations

import io

import pytest

from bench.calibration import oracle_search
from bench.calibration.knowledge import constants


def test_a_gain_under_one_search_share_is_a_tie_and_ties_keep_the_seed_design():
    assert oracle_search.choose({"seed": 0.4849, "lexical": 0.5215}, tie=0.0152) == "lexical"
    assert oracle_search.choose({"seed": 0.4849, "lexical": 0.4990}, tie=0.0152) == "seed"
    assert oracle_search.choose({"seed": 0.50, "lexical": 0.40}, tie=0.0152) == "seed"


def test_the_search_is_patched_inside_and_restored_and_a_decay_sweep_runs_the_seed_search():
    from reference.knowledge import layer
    before = layer.ORACLE_SEARCH
    for name in ("seed", "lexical"):
        with constants(oracle=name):
            assert layer.ORACLE_SEARCH == name
        assert layer.ORACLE_SEARCH == before
    with constants(decay=0.3):   # DECAY_WEIGHT weighs the seed's search only
        assert layer.ORACLE_SEARCH == "seed"
    with pytest.raises(RuntimeError), constants(oracle="seed"):
        raise RuntimeError("a failed replay")
    assert layer.ORACLE_SEARCH == before


def test_the_stage_replays_the_calibration_scenario_under_each_and_prints_the_choice(monkeypatch):
    seen = []

    def fake_run(name):
        from reference.knowledge import layer
        seen.append((name, layer.ORACLE_SEARCH))
        return {"metrics": {"search_ndcg@10": {"seed": 0.48, "lexical": 0.52}[layer.ORACLE_SEARCH]}}
    monkeypatch.setattr(oracle_search, "run", fake_run)
    out = io.StringIO()
    assert oracle_search.calibrate(out) == "lexical"
    assert seen == [("knowledge-history-calibration", "seed"), ("knowledge-history-calibration", "lexical")]
    assert "chosen: ORACLE_SEARCH 'lexical'" in out.getvalue()
