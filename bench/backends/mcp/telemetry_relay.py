"""`TelemetryRelay`: forward the server process's store telemetry into the harness's sink.

The server appends one JSON line per store event to a file (`--telemetry`),
each written before the tool call answers. After every call the relay reads
the lines added since the last read and emits them as `TelemetryEvent`s, so
the harness's telemetry file holds the same store events, in the same order
relative to the harness's own step events, as with the in-process backend.
"""
from __future__ import annotations

import json
from pathlib import Path

from reference.telemetry import TelemetryEvent, TelemetrySink


class TelemetryRelay:
    """Tails `path` (JSON lines of `TelemetryEvent`) into `sink`."""

    def __init__(self, path: Path, sink: TelemetrySink) -> None:
        self.path = Path(path)
        self.sink = sink
        self._offset = 0
        self.forwarded = 0

    def forward(self) -> int:
        """Emit the complete lines appended since the last call; returns how many."""
        try:
            with self.path.open("rb") as fh:
                fh.seek(self._offset)
                data = fh.read()
        except FileNotFoundError:
            return 0
        end = data.rfind(b"\n") + 1          # a line still being written waits for the next call
        count = 0
        for line in data[:end].splitlines():
            if line.strip():
                self.sink.emit(TelemetryEvent(**json.loads(line)))
                count += 1
        self._offset += end
        self.forwarded += count
        return count
