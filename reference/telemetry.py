"""Memory telemetry events (seed 003 §4.7) and the sinks that receive them.

One event per memory operation, with the seed's fields (memory_id,
entity_type, scope, run_id, task_id, timestamp) plus the operation, its
latency in milliseconds and free-form extras. The store emits events for its
own reads and writes; the harness emits one per replayed step through the same
sink, with `source` telling them apart. Serialised as one JSON object per line.
"""
from __future__ import annotations

import json
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

OPS = ("read", "write", "overwrite", "delete", "query")


@dataclass
class TelemetryEvent:
    """One memory operation. `op` is one of `OPS`; `timestamp` is the injected clock's."""

    op: str
    memory_id: str | None
    entity_type: str | None
    scope: str | None
    run_id: str | None
    task_id: str | None
    timestamp: float
    latency_ms: float | None = None
    source: str = "store"
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise ValueError(f"telemetry op {self.op!r} is not one of {OPS}")

    def to_json(self) -> str:
        # a shallow dict: `asdict` deep-copies `extra`, which cost more than the graph write it records
        fields = {"op": self.op, "memory_id": self.memory_id, "entity_type": self.entity_type, "scope": self.scope,
                  "run_id": self.run_id, "task_id": self.task_id, "timestamp": self.timestamp,
                  "latency_ms": self.latency_ms, "source": self.source, "extra": self.extra}
        try:
            return json.dumps(fields, sort_keys=True, separators=(",", ":"))
        except TypeError:   # a dataclass inside `extra`: asdict converts it
            return json.dumps(asdict(self), sort_keys=True, separators=(",", ":"))


@runtime_checkable
class TelemetrySink(Protocol):
    """Receives events; must be safe to call from several threads."""

    def emit(self, event: TelemetryEvent) -> None: ...


class NullSink:
    """Drops every event (the default when nobody listens)."""

    def emit(self, event: TelemetryEvent) -> None:
        return None


class ListSink:
    """Keeps events in memory; for tests and for the harness's per-step view."""

    def __init__(self) -> None:
        self.events: list[TelemetryEvent] = []
        self._lock = threading.Lock()

    def emit(self, event: TelemetryEvent) -> None:
        with self._lock:
            self.events.append(event)


class JsonlSink:
    """Appends one JSON line per event to a file; `close()` flushes it."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = self.path.open("a", encoding="utf-8")
        self._lock = threading.Lock()

    def emit(self, event: TelemetryEvent) -> None:
        with self._lock:
            self._fh.write(event.to_json() + "\n")

    def close(self) -> None:
        with self._lock:
            self._fh.close()


class TeeSink:
    """Sends every event to several sinks."""

    def __init__(self, *sinks: TelemetrySink) -> None:
        self.sinks = sinks

    def emit(self, event: TelemetryEvent) -> None:
        for s in self.sinks:
            s.emit(event)


def read_events(path: str | Path) -> list[dict[str, Any]]:
    """Load a JSONL telemetry file as plain dicts (for scoring and tests)."""
    with Path(path).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]
