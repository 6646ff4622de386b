"""`SentenceTransformerEmbedder`: an optional real sentence-embedding model, local files only.

sentence-transformers is imported lazily (it is not a dependency) and the
model is loaded from a local directory with the Hugging Face hub switched
offline, so nothing is ever downloaded. Its name is "st:<directory name>".
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from reference.embed.protocol import EmbedderUnavailable, embed_input, normalise_rows


class SentenceTransformerEmbedder:
    """Wraps `sentence_transformers.SentenceTransformer(model_path)` on CPU by default."""

    def __init__(self, model_path: str | Path, *, device: str = "cpu", batch_size: int = 32) -> None:
        path = Path(model_path)
        if not path.is_dir():
            raise EmbedderUnavailable(f"sentence-transformers model path {str(path)!r} is not a local directory")
        # Set before the import: huggingface_hub reads them when it loads.
        os.environ["HF_HUB_OFFLINE"] = "1"
        os.environ["TRANSFORMERS_OFFLINE"] = "1"
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise EmbedderUnavailable(
                "SentenceTransformerEmbedder needs the optional package sentence-transformers "
                "(pip install sentence-transformers)"
            ) from exc
        try:
            self._model = SentenceTransformer(str(path), device=device, local_files_only=True)
        except TypeError:  # releases before local_files_only existed; HF_HUB_OFFLINE still applies
            self._model = SentenceTransformer(str(path), device=device)
        self.name = f"st:{path.name}"
        self.dim = int(self._model.get_sentence_embedding_dimension())
        self.batch_size = batch_size

    def embed(self, texts: list[str]) -> np.ndarray:
        texts, empty = embed_input(texts, self.dim)
        if empty is not None:
            return empty
        out = self._model.encode(texts, batch_size=self.batch_size, convert_to_numpy=True,
                                 normalize_embeddings=True, show_progress_bar=False)
        return normalise_rows(np.asarray(out, dtype=np.float32))
