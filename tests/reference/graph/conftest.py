"""Makes the test-only `graph_model` importable (tests run with --import-mode=importlib)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import pytest  # noqa: E402

from reference.clock import LogicalClock  # noqa: E402
from reference.telemetry import ListSink  # noqa: E402


class Env:
    """A fresh store with a logical clock starting at t=100 and a list telemetry sink."""

    def __init__(self, path: Path) -> None:
        from reference.graph import GraphStore

        self.path = path
        self.clock = LogicalClock(100.0)
        self.sink = ListSink()
        self.store = GraphStore.open(path, clock=self.clock, telemetry=self.sink, sync=False)

    def reopen(self, **kw):
        from reference.graph import GraphStore

        self.store.close()
        self.store = GraphStore.open(self.path, clock=self.clock, telemetry=self.sink, sync=False, **kw)
        return self.store


@pytest.fixture
def env(tmp_path):
    e = Env(tmp_path / "graph")
    yield e
    e.store.close()
