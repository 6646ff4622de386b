"""Text embedders: the `Embedder` protocol, the default `HashingEmbedder`, an optional local
sentence-transformers model, and a registry by name."""
from reference.embed.hashing import HashingEmbedder
from reference.embed.protocol import Embedder, EmbedderUnavailable, UnknownEmbedder, normalise_rows
from reference.embed.registry import embedder_names, get_embedder, register_embedder
from reference.embed.sentence import SentenceTransformerEmbedder

__all__ = [
    "Embedder", "EmbedderUnavailable", "UnknownEmbedder", "normalise_rows", "HashingEmbedder",
    "SentenceTransformerEmbedder", "get_embedder", "register_embedder", "embedder_names",
]
