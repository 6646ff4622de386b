"""Seed 001 §4 calculateRelevance, computed here by hand, and the layer rules."""
import math

import pytest

from reference.knowledge.decay import DAY, calculate_relevance, direction, layer_for

NOW = 1_800_000_000.0


@pytest.mark.parametrize("days,count,importance,want", [
    (0, 0, 1.0, 1.0),
    (30, 0, 1.0, math.exp(-1)),                       # 0.3679
    (30, 3, 1.0, math.exp(-1) + math.log(4) / 10),    # + 0.1386
    (60, 9, 0.5, 0.5 * math.exp(-2) + math.log(10) / 10),
    (1, 50, 1.0, 1.0),                                 # capped at 1.0
])
def test_calculate_relevance(days, count, importance, want):
    assert calculate_relevance(NOW - days * DAY, count, NOW, importance) == pytest.approx(want, rel=1e-12)


def test_layers():
    assert layer_for(3, 0.8) == "hot"
    assert layer_for(2, 1.0) == "warm"        # fresh but not used enough
    assert layer_for(3, 0.79) == "warm"
    assert layer_for(0, 0.3) == "warm"
    assert layer_for(10, 0.29) == "cold"
    assert (direction("cold", "hot"), direction("hot", "warm"), direction("warm", "warm")) == (1, -1, 0)


def test_untouched_memory_turns_cold_after_about_36_days():
    # exp(-d/30) < 0.3  <=>  d > 30 ln(1/0.3) = 36.12 days
    assert layer_for(0, calculate_relevance(NOW - 36 * DAY, 0, NOW)) == "warm"
    assert layer_for(0, calculate_relevance(NOW - 37 * DAY, 0, NOW)) == "cold"
