"""The embedder named by the `CODEMEM_EMBEDDER` environment variable (default: the store's own, hashing-v1).

`CODEMEM_EMBEDDER=wordllama codemem-bench run ...` runs the reference backend
with WordLlama vectors. One instance per name per process: loading a model's
weights costs more than a scenario's queries.

`CODEMEM_EMBED_CACHE=DIR` (opt-in, off by default) wraps that embedder in the content-addressed row cache of
`cache.py`, for repeated measurement runs of the same texts (`python3 -m bench.ranker_table --cache DIR`);
same rows, so same scores, but no latency figure is taken with it (`env_embedder(cache=False)` ignores it).
"""
from __future__ import annotations

import functools
import os

from reference.embed.cache import VARIABLE as CACHE_VARIABLE
from reference.embed.cache import CachedEmbedder
from reference.embed.protocol import Embedder
from reference.embed.registry import get_embedder

VARIABLE = "CODEMEM_EMBEDDER"


@functools.lru_cache(maxsize=4)
def _cached(name: str) -> Embedder:
    return get_embedder(name)


@functools.lru_cache(maxsize=4)
def _with_cache(name: str, folder: str) -> Embedder:
    return CachedEmbedder(_cached(name), folder)


def env_embedder(cache: bool = True) -> Embedder | None:
    """The embedder `CODEMEM_EMBEDDER` names, or None (the store's default) when unset or empty; wrapped
    in the row cache when `CODEMEM_EMBED_CACHE` names a folder, unless `cache` is False (latency benchmarks)."""
    name = os.environ.get(VARIABLE, "").strip()
    if not name:
        return None
    folder = os.environ.get(CACHE_VARIABLE, "").strip() if cache else ""
    return _with_cache(name, folder) if folder else _cached(name)
