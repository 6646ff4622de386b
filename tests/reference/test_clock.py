"""Injected clocks and ISO rendering."""
from __future__ import annotations

import time

import pytest

from reference.clock import Clock, LogicalClock, SystemClock, iso


def test_logical_clock_moves_only_when_told():
    c = LogicalClock(100.0)
    assert c.now() == 100.0 and c.now() == 100.0
    assert c.advance(2.5) == 102.5 and c.now() == 102.5
    assert c.set(200) == 200.0
    with pytest.raises(ValueError):
        c.advance(-1)
    with pytest.raises(ValueError):
        c.set(199.0)
    assert c.now() == 200.0


def test_clocks_satisfy_the_protocol():
    assert isinstance(LogicalClock(), Clock) and isinstance(SystemClock(), Clock)
    before = time.time()
    assert before - 1 <= SystemClock().now() <= time.time() + 1


@pytest.mark.parametrize("ts,expected", [
    (0, "1970-01-01T00:00:00Z"),
    (1_700_000_000, "2023-11-14T22:13:20Z"),  # 19675 days + 80000 s, by hand
    (951_782_400, "2000-02-29T00:00:00Z"),   # leap day
    (59.9, "1970-01-01T00:00:59Z"),          # fractions are truncated
])
def test_iso(ts, expected):
    assert iso(ts) == expected
