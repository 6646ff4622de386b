"""Rankers by name. Each module registers a factory `store -> Ranker`."""
from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from reference.rankers.base import Ranker

# name -> "module:factory", imported on first use so rankers stay independent
RANKERS: dict[str, str] = {
    "galaxybrain": "reference.rankers.galaxybrain:GalaxybrainRanker",
    "oracle-hybrid": "reference.rankers.oracle_hybrid:OracleHybridRanker",
    "memory-lane": "reference.rankers.memory_lane:MemoryLaneRanker",
    "rrf": "reference.rankers.rrf:RRFRanker",
}


# the ranker of the default `reference` backend and of the MCP server: the best on the calibration split,
# as `python3 -m bench.calibration` prints it (bench/calibration/lexical.py, "the rankers on the calibration split")
DEFAULT_RANKER = "oracle-hybrid"


def register_ranker(name: str, target: str) -> None:
    """Add a ranker: `target` is "module:callable" taking the store and returning a Ranker."""
    if name in RANKERS and RANKERS[name] != target:
        raise ValueError(f"ranker {name!r} is already registered as {RANKERS[name]}")
    RANKERS[name] = target


def make_ranker(name: str, store: Any) -> Ranker:
    """Build the ranker `name` over an open store; a clear error lists the known names."""
    if name not in RANKERS:
        raise ValueError(f"unknown ranker {name!r}; known: {', '.join(RANKERS)}")
    module, _, attr = RANKERS[name].partition(":")
    factory: Callable[[Any], Ranker] = getattr(importlib.import_module(module), attr)
    return factory(store)
