"""Fixtures for the project memory tests: a store with a LogicalClock, a real git repository in tmp_path."""
from __future__ import annotations

import pytest

from reference.clock import LogicalClock
from reference.store import MemoryStore

from tests.reference.project.git_repo import Repo
from tests.reference.project.history_data import dataset  # noqa: F401  (fixture shared by the tests)


@pytest.fixture
def repo(tmp_path) -> Repo:
    path = tmp_path / "repo"
    path.mkdir()
    return Repo(path)


@pytest.fixture
def store(tmp_path):
    s = MemoryStore.open(tmp_path / "store", clock=LogicalClock(1_000_000.0))
    yield s
    s.close()
