"""`AppendingJsonlSink`: telemetry lines appended and flushed one by one.

Several server processes may share one telemetry file (one per agent, same
store): each event is one `write` of one line to a file opened in append mode,
flushed at once, so lines from different processes never interleave inside a
line and a reader sees every event as soon as the tool call has answered.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path

from reference.telemetry import TelemetryEvent


class AppendingJsonlSink:
    """Appends `event.to_json()` lines to `path` (created with its folder if needed)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fd: int | None = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._lock = threading.Lock()

    def emit(self, event: TelemetryEvent) -> None:
        line = (event.to_json() + "\n").encode("utf-8")
        with self._lock:
            if self._fd is not None:
                os.write(self._fd, line)

    def close(self) -> None:
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None
