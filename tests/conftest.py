"""Test-run switches shared by every test folder.

Tests marked `ranx` cross-check our metrics against ranx, whose numba functions
compile on first use (about 400 s on a fresh venv on 2 cores): they are skipped
unless `CODEMEM_BENCH_RANX=1`, so the default `python3 -m pytest` (and CI) never
pays that compile. Run them with `CODEMEM_BENCH_RANX=1 python3 -m pytest -m ranx`.
"""
from __future__ import annotations

import os

import pytest

RANX_ENV = "CODEMEM_BENCH_RANX"


def pytest_collection_modifyitems(config, items) -> None:
    if os.environ.get(RANX_ENV) == "1":
        return
    skip = pytest.mark.skip(reason=f"ranx cross-check (numba compile on first use): set {RANX_ENV}=1 to run")
    for item in items:
        if "ranx" in item.keywords:
            item.add_marker(skip)
