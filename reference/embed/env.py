"""The embedder named by the `CODEMEM_EMBEDDER` environment variable (default: the store's own, hashing-v1).

`CODEMEM_EMBEDDER=wordllama codemem-bench run ...` runs the reference backend
with WordLlama vectors. One instance per name per process: loading a model's
weights costs more than a scenario's queries.
"""
from __future__ import annotations

import functools
import os

from reference.embed.protocol import Embedder
from reference.embed.registry import get_embedder

VARIABLE = "CODEMEM_EMBEDDER"


@functools.lru_cache(maxsize=4)
def _cached(name: str) -> Embedder:
    return get_embedder(name)


def env_embedder() -> Embedder | None:
    """The embedder `CODEMEM_EMBEDDER` names, or None (the store's default) when unset or empty."""
    name = os.environ.get(VARIABLE, "").strip()
    return _cached(name) if name else None
