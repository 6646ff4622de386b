"""The chroma embedding functions of the backend: wrappers of the reference's `HashingEmbedder` (`chroma`)
and `MiniLMEmbedder` (`chroma:minilm`, the local all-MiniLM-L6-v2 files; never chroma's own ONNX copy).

The backend passes `embeddings=` and `query_embeddings=` itself on every call;
this function is given to the collection only so that chroma never falls
back to its default ONNX model (which downloads all-MiniLM-L6-v2 on first
use). Should chroma call it, it returns the very same vectors. It is
registered under its `name()` so a persisted collection can rebuild it.
"""
from __future__ import annotations

import functools
from typing import Any

import numpy as np
from chromadb.api.types import Documents, EmbeddingFunction, Embeddings
from chromadb.utils.embedding_functions import register_embedding_function

from reference.embed import HashingEmbedder


@register_embedding_function
class HashingEmbeddingFunction(EmbeddingFunction[Documents]):
    """Chroma's view of `HashingEmbedder` (cosine space only)."""

    def __init__(self, dim: int = 256) -> None:
        self.embedder = HashingEmbedder(dim)

    def __call__(self, input: Documents) -> Embeddings:
        return list(self.embedder.embed(list(input)))

    def embed_one(self, text: str) -> np.ndarray:
        return self.embedder.embed([text])[0]

    @staticmethod
    def name() -> str:
        return "codemem-bench-hashing"

    def get_config(self) -> dict[str, Any]:
        return {"dim": self.embedder.dim}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> "HashingEmbeddingFunction":
        return HashingEmbeddingFunction(int(config["dim"]))

    def default_space(self) -> str:
        return "cosine"

    def supported_spaces(self) -> list[str]:
        return ["cosine"]


@functools.lru_cache(maxsize=1)
def _shared_minilm():
    """One `MiniLMEmbedder` per process: chroma rebuilds a collection's embedding function from its config
    on every `add` (measured: 0.4 s twice per write when each rebuild loaded the ONNX session)."""
    from reference.embed.minilm import MiniLMEmbedder
    return MiniLMEmbedder()


@register_embedding_function
class MiniLMEmbeddingFunction(HashingEmbeddingFunction):
    """Chroma's view of `MiniLMEmbedder` (the files `codemem-bench models install minilm` put in place)."""

    def __init__(self) -> None:
        self.embedder = _shared_minilm()

    @staticmethod
    def name() -> str:
        return "codemem-bench-minilm"

    def get_config(self) -> dict[str, Any]:
        return {}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> "MiniLMEmbeddingFunction":
        return MiniLMEmbeddingFunction()
