"""The server's clock: wall time by default, or a logical clock a harness moves.

`--clock system` (default) stamps records with `time.time()`; `--clock
logical:START` starts a `LogicalClock` at Unix time START that only moves
through the private `_harness_set_clock` / `_harness_advance_clock` tools, so a
replayed session records exactly the scenario's times.
"""
from __future__ import annotations

import math
import threading

from reference.clock import MAX_TS, LogicalClock, SystemClock


class ClockSpecError(ValueError):
    """A `--clock` value that is neither `system` nor `logical:<unix seconds>`."""


class ServerClock:
    """A `Clock` (`now()`), settable when logical; safe to use from tool threads."""

    def __init__(self, logical_start: float | None = None) -> None:
        self._logical = LogicalClock(logical_start) if logical_start is not None else None
        self._system = SystemClock()
        self._lock = threading.Lock()

    @property
    def logical(self) -> bool:
        return self._logical is not None

    def now(self) -> float:
        return self._logical.now() if self._logical is not None else self._system.now()

    def set(self, t: float) -> float:
        """Set the logical clock (never backwards, never past MAX_TS); `ValueError` on a system clock."""
        with self._lock:
            return self._require().set(_in_range("time", t))

    def advance(self, seconds: float) -> float:
        with self._lock:
            clock = self._require()
            seconds = _finite("seconds", seconds)
            _in_range("the advanced time", clock.now() + seconds) if seconds > 0 else None
            return clock.advance(seconds)

    def _require(self) -> LogicalClock:
        if self._logical is None:
            raise ValueError("the server runs on the system clock; start it with --clock logical:START to set time")
        return self._logical

    def spec(self) -> str:
        return f"logical:{self.now()!r}" if self.logical else "system"


def _finite(name: str, value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number of seconds, got {value!r}")
    return float(value)


def _in_range(name: str, value: float) -> float:
    value = _finite(name, value)
    if not 0.0 <= value <= MAX_TS:
        raise ValueError(f"{name} must be Unix seconds from 0 to {MAX_TS:.0f} (the end of year 9999), "
                         f"got {value!r}")
    return value


def parse_clock(spec: str) -> ServerClock:
    """`system` or `logical:<unix seconds>` (e.g. `logical:1736935800`)."""
    if spec == "system":
        return ServerClock()
    kind, sep, value = spec.partition(":")
    if kind == "logical" and sep:
        try:
            start = float(value)
        except ValueError:
            start = math.nan
        if math.isfinite(start) and 0.0 <= start <= MAX_TS:
            return ServerClock(start)
    raise ClockSpecError(f"--clock {spec[:80]!r}: expected 'system' or 'logical:<unix seconds>' "
                         f"(0 to {MAX_TS:.0f}) such as logical:1736935800")
