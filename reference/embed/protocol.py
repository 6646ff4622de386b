"""The `Embedder` protocol every text embedder of the store satisfies."""
from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

from reference.errors import StoreError


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 rows.

    `name` identifies the model (recorded in the vector file, so a store is
    never queried with vectors of another model); `dim` is the row length.
    `embed(texts)` returns an array of shape (len(texts), dim); a text with
    nothing to embed may give an all-zero row.
    """

    name: str
    dim: int

    def embed(self, texts: list[str]) -> np.ndarray: ...


class EmbedderUnavailable(StoreError):
    """An embedder cannot be built here (package missing, model path absent)."""


class UnknownEmbedder(StoreError, ValueError):
    """No embedder is registered under the requested name."""


def normalise_rows(mat: np.ndarray) -> np.ndarray:
    """L2-normalise each row in float32; all-zero rows stay zero."""
    mat = np.asarray(mat, dtype=np.float32)
    norms = np.linalg.norm(mat, axis=1, keepdims=True)
    return np.divide(mat, norms, out=np.zeros_like(mat), where=norms > 0)


def embed_input(texts: Any, dim: int) -> tuple[list[str], np.ndarray | None]:
    """Every embedder's input guard: (the texts as a list, the (0, dim) answer when there are none, else None).

    A single string is a `TypeError` (iterated, it would embed each character as a text)."""
    if isinstance(texts, str):
        raise TypeError("embed() takes a list of texts, not a single string")
    texts = list(texts)
    return texts, (np.zeros((0, dim), dtype=np.float32) if not texts else None)
