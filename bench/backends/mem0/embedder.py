"""mem0's view of the local all-MiniLM-L6-v2 (`reference.embed.MiniLMEmbedder`): the vectors every peer gets.

mem0's embedder providers either call a service or load a model by name (fastembed's provider passes no
local path; huggingface's needs torch), so the backend builds `Memory` with the `openai` provider, whose
client makes no request until it embeds, and puts this instance in its place before any call: the same
role mem0's `langchain` provider gives a caller's own embedder object, without langchain.
"""
from __future__ import annotations

from typing import Literal, Optional

from mem0.configs.embeddings.base import BaseEmbedderConfig
from mem0.embeddings.base import EmbeddingBase

from reference.embed.minilm import DIM, MiniLMEmbedder


class MiniLMEmbedding(EmbeddingBase):
    """`embed(text)` -> the 384 floats of `MiniLMEmbedder` (a blank text gives the zero vector)."""

    def __init__(self) -> None:
        super().__init__(BaseEmbedderConfig(embedding_dims=DIM))
        self.embedder = MiniLMEmbedder()

    def embed(self, text, memory_action: Optional[Literal["add", "search", "update"]] = None):
        return self.embedder.embed([text])[0].tolist()

    def embed_batch(self, texts, memory_action="add"):
        return [row.tolist() for row in self.embedder.embed(list(texts))]
