"""`WordLlamaEmbedder` ("wordllama-l2-supercat-256"): static token embeddings from the `wordllama` wheel.

WordLlama (https://github.com/dleemiller/WordLlama) pools token embeddings
taken from a large language model's input layer: no network, no torch, about
5 ms per hundred short texts. The weights (`weights/l2_supercat_256.safetensors`)
and the tokenizer (`tokenizers/l2_supercat_tokenizer_config.json`) ship inside
the wheel, but `WordLlama.load` looks for the tokenizer under `tokenizer/`
and otherwise fetches it from Hugging Face; so this loader opens both files
from the installed package itself and never calls anything that downloads.

Optional extra: `pip install 'codemem-bench[wordllama]'` (or `pip install wordllama`).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from reference.embed.protocol import EmbedderUnavailable, embed_input, normalise_rows

CONFIG = "l2_supercat"
DIM = 256
INSTALL = "pip install 'codemem-bench[wordllama]'  (or: pip install wordllama)"


def package_files(config: str = CONFIG, dim: int = DIM) -> tuple[Path, Path]:
    """(weights, tokenizer) paths inside the installed wordllama package; a clear error when missing."""
    try:
        import wordllama
    except ImportError as exc:
        raise EmbedderUnavailable(f"the wordllama embedder needs the optional package wordllama: {INSTALL}") from exc
    root = Path(wordllama.__file__).resolve().parent
    weights = root / "weights" / f"{config}_{dim}.safetensors"
    tokenizer = next((p for p in (root / "tokenizers" / f"{config}_tokenizer_config.json",
                                  root / "tokenizer" / f"{config}_tokenizer_config.json") if p.is_file()), None)
    if not weights.is_file() or tokenizer is None:
        raise EmbedderUnavailable(f"the installed wordllama package ({root}) lacks the {config} {dim}-d weights or "
                                  f"tokenizer; reinstall it: {INSTALL}")
    return weights, tokenizer


class WordLlamaEmbedder:
    """Mean-pooled WordLlama token embeddings, L2-normalised float32 rows."""

    def __init__(self, config: str = CONFIG, dim: int = DIM, batch_size: int = 256) -> None:
        weights, tokenizer_path = package_files(config, dim)
        from safetensors import safe_open
        from tokenizers import Tokenizer
        from wordllama.inference import WordLlamaInference

        with safe_open(str(weights), framework="np", device="cpu") as f:
            embedding = f.get_tensor("embedding.weight")
        self._model = WordLlamaInference(embedding, Tokenizer.from_file(str(tokenizer_path)))
        self.name = f"wordllama-{config.replace('_', '-')}-{dim}"
        self.dim = int(embedding.shape[1])
        self.batch_size = batch_size

    def embed(self, texts: list[str]) -> np.ndarray:
        """(len(texts), dim) float32; a text without tokens gives a zero row."""
        texts, empty = embed_input(texts, self.dim)
        if empty is not None:
            return empty
        out = np.asarray(self._model.embed(texts, norm=False, batch_size=self.batch_size), dtype=np.float32)
        return normalise_rows(out.reshape(len(texts), self.dim))
