"""bench.calibration.knowledge: tie-breaking toward the seed, constants patched for a run and restored after."""
from __future__ import annotations

from bench.calibration.knowledge import CALIBRATION, SCORED, best, constants


def test_best_prefers_the_top_score_then_the_value_nearest_the_seed():
    assert best({0.5: 0.6, 0.55: 0.7, 0.7: 0.7}, seed=0.5) == 0.55
    assert best({0.0: 0.9, 1.0: 0.9}, seed=1.0) == 1.0
    assert best({0.0: 0.65, 0.2: 0.63, 1.0: 0.4}, seed=1.0, tie=0.03) == 0.2   # within one query of the best


def test_constants_are_patched_inside_and_restored_after():
    from reference.knowledge import hybrid, relations
    from reference.lane import scoring
    def now():
        builder = relations.RelationshipBuilder(None, None)
        return (scoring.floors_for("hashing-v1"), relations.RELATE_THRESHOLD, relations.UPDATE_THRESHOLD,
                hybrid.DECAY_WEIGHT, builder.relate_threshold, builder.update_threshold)
    before = now()
    with constants(floor=0.4, relate=0.7, decay=1.0):
        assert scoring.floors_for("hashing-v1") == scoring.Floors(0.4, 0.32)
        assert relations.RelationshipBuilder(None, None).relate_threshold == 0.7
        assert relations.RelationshipBuilder(None, None).update_threshold == before[2]   # not asked: kept
        assert hybrid.DECAY_WEIGHT == 1.0
    with constants(update=0.95):
        builder = relations.RelationshipBuilder(None, None)
        assert (builder.update_threshold, builder.relate_threshold) == (0.95, before[1])
    assert now() == before


def test_the_calibration_scenario_is_never_scored():
    import json
    from pathlib import Path
    suites = json.loads((Path(__file__).resolve().parents[3] / "scenarios" / "suites.json").read_text())
    assert CALIBRATION not in SCORED and all(CALIBRATION not in names for names in suites.values())
