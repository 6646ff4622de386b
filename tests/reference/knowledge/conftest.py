import pytest

from reference.clock import LogicalClock
from reference.knowledge import KnowledgeLayer
from reference.store import MemoryStore

START = 1_767_225_600.0  # 2026-01-01T00:00:00Z
DAY = 86_400.0


@pytest.fixture
def clock():
    return LogicalClock(START)


@pytest.fixture
def store(tmp_path, clock):
    s = MemoryStore.open(tmp_path / "store", clock=clock)
    yield s
    s.close()


@pytest.fixture
def layer(store):
    return KnowledgeLayer.for_store(store)
