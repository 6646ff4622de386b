"""Telemetry for store operations: one `TelemetryEvent` per read/write/overwrite/delete/query.

The caller sets the scope/run_id/task_id context with `set_context`; the
timestamp is the injected clock's time at the start of the operation and the
latency is measured with `perf_counter`. Events are emitted only for
operations that succeed (a failed call raises instead).
"""
from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from reference.clock import Clock
from reference.telemetry import NullSink, TelemetryEvent, TelemetrySink


@dataclass(frozen=True)
class TelemetryContext:
    scope: str | None = None
    run_id: str | None = None
    task_id: str | None = None


@dataclass
class EventDraft:
    """What an operation fills in while it runs (its id may only be known at the end)."""

    memory_id: str | None = None
    entity_type: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class StoreTelemetry:
    """Emits the store's events to `sink` with the current context."""

    def __init__(self, sink: TelemetrySink | None, clock: Clock) -> None:
        self.sink = sink or NullSink()
        self.clock = clock
        self._ctx = TelemetryContext()
        self._lock = threading.Lock()

    def set_context(self, scope: str | None = None, run_id: str | None = None, task_id: str | None = None) -> None:
        with self._lock:
            self._ctx = TelemetryContext(scope, run_id, task_id)

    @property
    def context(self) -> TelemetryContext:
        return self._ctx

    @contextmanager
    def measure(self, op: str, entity_type: str | None, memory_id: str | None = None,
                **extra: Any) -> Iterator[EventDraft]:
        draft = EventDraft(memory_id, entity_type, dict(extra))
        ts = self.clock.now()
        t0 = time.perf_counter()
        yield draft
        latency = (time.perf_counter() - t0) * 1000.0
        self._emit(op, draft.memory_id, draft.entity_type, ts, latency, draft.extra)

    def emit_each(self, op: str, entity_type: str | None, items: list[tuple[str, float]],
                  latency_ms: float) -> None:
        """One event per (memory id, timestamp) of a batch; each carries an equal share of its latency.

        A batch reads in the telemetry exactly as the same operations one by one would,
        apart from latency, which cannot be told apart inside one transaction.
        """
        share = latency_ms / max(len(items), 1)
        for memory_id, ts in items:
            self._emit(op, memory_id, entity_type, ts, share, {})

    def _emit(self, op: str, memory_id: str | None, entity_type: str | None, ts: float, latency_ms: float,
              extra: dict[str, Any]) -> None:
        ctx = self._ctx
        self.sink.emit(TelemetryEvent(op=op, memory_id=memory_id, entity_type=entity_type, scope=ctx.scope,
                                      run_id=ctx.run_id, task_id=ctx.task_id, timestamp=ts,
                                      latency_ms=latency_ms, extra=extra))
