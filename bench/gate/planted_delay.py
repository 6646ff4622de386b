"""A planted latency regression: the reference backend with a fixed delay added to every search.

"Search" is every backend method that ranks stored items for a query: memory, keyword,
code, symbol and whole-store search, the knowledge oracle's search, memory-lane's find and
inject, project search and file localisation. The delay is a `time.sleep`, so it costs wall-clock time but no CPU,
like a slow disk or a network round trip. Used by `bench.gate.calibrate` and the gate tests.
"""
from __future__ import annotations

import functools
import time
from typing import Any

from bench.backends.reference.backend import ReferenceBackend

SEARCH_METHODS = ("search_memories", "keyword_search", "search_all", "code_search", "symbol_search",
                  "oracle_search", "lane_find", "lane_inject", "project_search", "project_locate_files")


def _delayed(name: str) -> Any:
    original = getattr(ReferenceBackend, name)

    @functools.wraps(original)
    def method(self: "DelayedSearch", *args: Any, **kwargs: Any) -> Any:
        time.sleep(self.delay_s)
        return original(self, *args, **kwargs)

    return method


class DelayedSearch(ReferenceBackend):
    """`ReferenceBackend` that sleeps `delay_s` (default 5 ms) before every search."""

    name = "delayed-search"
    options = ()
    delay_s = 0.005


for _name in SEARCH_METHODS:
    setattr(DelayedSearch, _name, _delayed(_name))


def delayed_search(delay_ms: float) -> type[DelayedSearch]:
    """A `DelayedSearch` subclass that sleeps `delay_ms` milliseconds per search."""
    if delay_ms < 0:
        raise ValueError(f"the planted delay cannot be negative, got {delay_ms} ms")
    return type("DelayedSearch", (DelayedSearch,), {"delay_s": delay_ms / 1000})
