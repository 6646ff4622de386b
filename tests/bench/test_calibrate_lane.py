"""bench.calibrate_lane fits on the calibration split only and scores like the ranker ranks."""
from __future__ import annotations

import numpy as np

from bench import calibrate_lane
from reference.lane.hybrid import Features, Fusion


def test_it_reads_only_calibration_scenarios():
    for task in calibrate_lane.TASKS:
        lines, truth = calibrate_lane._scenario_lines("attrs", task)
        assert lines[0]["scenario"] == f"attrs-{task}-calibration" and truth
        asked = {st["id"] for st in lines if st.get("tool") == "memory_search_structured"}
        assert set(truth) <= asked


def test_ndcg_of_ranks_working_path_memories_first_then_by_relevance():
    z = np.zeros(3)
    ft = Features(np.asarray([1, 2, 3], dtype=np.uint64), np.asarray([1.0, 0.5, 0.0]), z, z, z, z,
                  np.asarray([False, False, True]))
    alias = {1: "a", 2: "b", 3: "c"}
    assert calibrate_lane.ndcg_of(ft, alias, {"c": 1}, Fusion(recency=0.0)) == 1.0
    assert calibrate_lane.ndcg_of(ft, alias, {"a": 1}, Fusion(recency=0.0)) < 1.0
