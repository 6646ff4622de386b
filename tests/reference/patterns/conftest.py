"""Shared fixtures: one manager with the built-in sets, compiled once per test session."""
from __future__ import annotations

import pytest

from reference.patterns import PatternSetManager


@pytest.fixture(scope="session")
def builtin_cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("patterns-cache")


@pytest.fixture(scope="session")
def shared_manager(builtin_cache_dir):
    """Read-only use only: tests that load sets build their own manager."""
    return PatternSetManager(builtin_cache_dir)
