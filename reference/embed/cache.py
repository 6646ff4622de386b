"""`CachedEmbedder`: an opt-in, content-addressed cache of an embedder's rows, for repeated measurement runs.

Off unless asked for (`CODEMEM_EMBED_CACHE=DIR`, read by `env.env_embedder`, or built directly). It exists
for one use: the ranker table (`python3 -m bench.ranker_table --cache DIR`) replays the same ~13,500 commit
texts once per ranker, and with all-MiniLM-L6-v2 each costs ~55 ms of CPU. A cached run gives the same rows
as an uncached one (the wrapped embedder's rows do not depend on the batch, which its own tests check), so
the same scores; its write latencies are not the embedder's, so no latency figure is ever taken with it.

The cache is one JSONL file per embedder fingerprint, `DIR/<fingerprint digest>.jsonl`, append-only:

    {"embedder": "minilm-l6-v2-int8 ...", "dim": 384}                     first line: what made the rows
    {"text_sha256": "<hex>", "row": "<base64 of the row's float32 bytes, little-endian>"}   one per text

The key is the sha256 of the text (UTF-8); the file name the sha256 of the fingerprint (the embedder's
`fingerprint` attribute when it has one, e.g. MiniLM's model digest, else "name dim"), so rows of another
model are never reused. A line that does not parse (a run killed mid-write) is skipped and recomputed.
"""
from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

import numpy as np

from reference.embed.protocol import Embedder, embed_input

VARIABLE = "CODEMEM_EMBED_CACHE"


def fingerprint(embedder: Embedder) -> str:
    """What identifies an embedder's rows: its `fingerprint` attribute, else its name and dim."""
    return str(getattr(embedder, "fingerprint", None) or f"{embedder.name} {embedder.dim}")


class CachedEmbedder:
    """Wraps an embedder; rows of texts seen before (in this process or an earlier one) come from DIR."""

    def __init__(self, inner: Embedder, folder: str | Path) -> None:
        self.inner, self.name, self.dim = inner, inner.name, inner.dim
        self.fingerprint = fingerprint(inner)
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / (hashlib.sha256(self.fingerprint.encode()).hexdigest()[:32] + ".jsonl")
        self._rows: dict[str, np.ndarray] = {}
        self.hits = self.misses = 0
        self._load()

    def _load(self) -> None:
        if not self.path.exists():
            self.path.write_text(json.dumps({"embedder": self.fingerprint, "dim": self.dim}) + "\n",
                                 encoding="utf-8")
            return
        with self.path.open(encoding="utf-8") as f:
            head = json.loads(f.readline() or "{}")
            if head.get("embedder") != self.fingerprint or head.get("dim") != self.dim:
                raise ValueError(f"{self.path}: cache of {head!r}, not of {self.fingerprint!r}; use another folder")
            for line in f:
                try:
                    rec = json.loads(line)
                    row = np.frombuffer(base64.b64decode(rec["row"]), dtype="<f4")
                except (ValueError, KeyError, TypeError):
                    continue   # a line cut by a killed run: recomputed on demand
                if row.shape == (self.dim,):
                    self._rows[rec["text_sha256"]] = row.astype(np.float32)

    def embed(self, texts: list[str]) -> np.ndarray:
        """The wrapped embedder's rows; texts not in the cache are embedded in one call and appended."""
        texts, empty = embed_input(texts, self.dim)
        if empty is not None:
            return empty
        keys = [hashlib.sha256(t.encode("utf-8", "surrogatepass")).hexdigest() for t in texts]
        todo = list(dict.fromkeys(k for k in keys if k not in self._rows))
        self.hits += len(keys) - len(todo)
        self.misses += len(todo)
        if todo:
            first = {k: t for k, t in zip(keys, texts)}
            rows = np.asarray(self.inner.embed([first[k] for k in todo]), dtype=np.float32)
            lines = []
            for k, row in zip(todo, rows):
                self._rows[k] = row.copy()
                lines.append(json.dumps({"text_sha256": k, "row": base64.b64encode(row.astype("<f4").tobytes())
                                         .decode("ascii")}) + "\n")
            with self.path.open("a", encoding="utf-8") as f:
                f.write("".join(lines))
        return np.stack([self._rows[k] for k in keys])
