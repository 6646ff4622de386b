"""Injected clocks: the store never reads wall time for data it records.

A clock is any object with `now() -> float` (Unix seconds). The harness passes
a `LogicalClock` driven by the scenario, so a replay is identical on every
machine; `SystemClock` exists for interactive use (the MCP server, ingest).
"""
from __future__ import annotations

import functools
import time
from datetime import datetime, timezone
from typing import Protocol, runtime_checkable

# The latest time a store accepts (the end of year 9999, the last `datetime` can show): a time past it
# is bad input, and one write at, say, 1e308 would order every later, real write "before" it.
MAX_TS = 253_402_300_799.0


@runtime_checkable
class Clock(Protocol):
    """Anything that tells the current time in Unix seconds."""

    def now(self) -> float: ...


class LogicalClock:
    """A clock that moves only when told to; `set` may not go backwards."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._t = float(start)

    def now(self) -> float:
        return self._t

    def advance(self, seconds: float) -> float:
        if seconds < 0:
            raise ValueError(f"cannot advance a clock by a negative amount ({seconds})")
        self._t += float(seconds)
        return self._t

    def set(self, t: float) -> float:
        if t < self._t:
            raise ValueError(f"cannot set the clock back from {self._t} to {t}")
        self._t = float(t)
        return self._t


class SystemClock:
    """Wall-clock time, for interactive use only (never in a replay)."""

    def now(self) -> float:
        return time.time()


@functools.lru_cache(maxsize=4096)   # a write renders the same few times several times (row, record, layers)
def iso(ts: float) -> str:
    """Render Unix seconds as an ISO-8601 UTC string with a `Z` suffix."""
    return datetime.fromtimestamp(ts, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
