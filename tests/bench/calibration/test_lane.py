"""bench.calibration.lane fits on the calibration split only and scores like the ranker ranks."""
from __future__ import annotations

import dataclasses

import numpy as np

from bench.calibration import lane
from reference.lane.hybrid import LANE, Features


def test_it_reads_only_calibration_scenarios():
    for task in lane.TASKS:
        lines, truth = lane._scenario_lines("attrs", task)
        assert lines[0]["scenario"] == f"attrs-{task}-calibration" and truth
        asked = {st["id"] for st in lines if st.get("tool") == "memory_search_structured"}
        assert set(truth) <= asked


def test_ndcg_of_ranks_working_path_memories_first_then_by_relevance_then_id_after_the_floor():
    z = np.zeros(3)
    ft = Features(np.asarray([0, 1, 2]), np.asarray([1.0, 0.5, 0.0]), z, z, z, np.asarray([False, False, True]), 3, z,
                  np.arange(3))
    rec = lane.Recorded(ft, ["a", "b", "c"], np.asarray([0, 1, 2]), np.ones(3, dtype=bool), {"c": 1})
    p = LANE.with_(recency_weight=0.0)
    assert lane.ndcg_of(rec, p) == 1.0
    assert lane.ndcg_of(dataclasses.replace(rec, grades={"a": 1}), p) < 1.0
    dropped = dataclasses.replace(rec, passes=np.asarray([True, True, False]))   # the floor drops "c"
    assert lane.ndcg_of(dropped, p) == 0.0
