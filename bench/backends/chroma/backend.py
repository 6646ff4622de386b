"""`chroma`: ChromaDB in embedded persistent mode, fed the reference's hashing-embedder vectors;
`chroma:minilm`: the same store fed all-MiniLM-L6-v2 vectors (the local model every semantic peer uses).

One collection `memories` in `<data_dir>/chroma/` (chroma's own layout:
`chroma.sqlite3` plus an HNSW segment folder), cosine space, HNSW with
ef_construction = ef_search = 200 (chroma's defaults are 100; the larger
search list keeps the approximate index close to exact at these sizes).
Every vector is computed here with `HashingEmbedder` and passed as
`embeddings=` / `query_embeddings=`, the same vectors the reference store and
sqlite-vec get; the collection's embedding function is our wrapper, so
chroma's default ONNX model is never loaded. Telemetry is off
(`anonymized_telemetry=False`); nothing touches the network.

Search: nearest `top_k` by cosine among the filtered memories (`where`),
score = 1 - cosine distance; memories whose text has no words (zero vector)
are left out of ranked answers. As in fts-baseline, under a filter the other
filtered memories follow at score 0.0 (by id). No query: the filtered
memories newest first at score 0.0. `where_metadata` is not offered (chroma
cannot express "key missing", which the harness's semantics need).

chromadb is the optional extra `chroma`: without it, importing this module
raises ImportError naming the extra; chromadb itself is imported by `open`
(about 3 s), not when the registry lists backends.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import numpy as np

from reference.clock import Clock
from reference.errors import CorruptData, StoreError
from reference.telemetry import TelemetrySink
from reference.tracker import MemoryFilter

from bench.backends.capabilities import Capability as C
from bench.backends.chroma.chroma_metadata import to_metadata, to_record, where_of
from bench.backends.fts_baseline.records import (
    InvalidArgument, check_count, check_id, check_query, dir_bytes, is_empty, make_filter, new_memory_id, newest_first,
    page, validate_memory,
)
from bench.backends.interface import Backend, Hit

EXTRA = "pip install 'codemem-bench[chroma]'"
if sys.modules.get("chromadb", 0) is None or (
        "chromadb" not in sys.modules and importlib.util.find_spec("chromadb") is None):
    raise ImportError(f"backend 'chroma' needs chromadb, which is not installed: {EXTRA}")

COLLECTION = "memories"
HNSW = {"space": "cosine", "ef_construction": 200, "ef_search": 200}
RECORD = ["documents", "metadatas"]


class EmbedderMismatch(StoreError):
    """The collection's vectors came from another embedder than the one asked for."""


class ChromaBackend(Backend):
    """ChromaDB PersistentClient, in-process."""

    name = "chroma"
    options = ("minilm",)
    capabilities = frozenset({
        C.MEMORY_WRITE, C.MEMORY_GET, C.MEMORY_LIST, C.MEMORY_SEARCH, C.MEMORY_FILTERS, C.MEMORY_DELETE,
    })

    def __init__(self, option: str | None = None) -> None:
        super().__init__(option)
        if option == "minilm":   # not installed: an ImportError naming the command, like a missing extra
            from reference.embed.minilm_files import check_model_dir
            from reference.embed.protocol import EmbedderUnavailable
            try:
                check_model_dir()
                import onnxruntime  # noqa: F401
                import tokenizers  # noqa: F401
            except (EmbedderUnavailable, ImportError) as exc:
                raise ImportError(f"backend 'chroma:minilm' needs the local all-MiniLM-L6-v2 model: {exc}") from exc

    def open(self, data_dir: Path, clock: Clock, telemetry: TelemetrySink) -> None:
        import chromadb
        from chromadb.config import Settings

        from bench.backends.chroma.embedding import HashingEmbeddingFunction, MiniLMEmbeddingFunction

        self.data_dir, self.clock = Path(data_dir), clock
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.ef = MiniLMEmbeddingFunction() if self.option == "minilm" else HashingEmbeddingFunction()
        path = self.data_dir / "chroma"
        model = f"{self.ef.embedder.name}/{self.ef.embedder.dim}"
        try:
            self.client = chromadb.PersistentClient(path=str(path), settings=Settings(anonymized_telemetry=False))
            self.col = self.client.get_or_create_collection(
                COLLECTION, embedding_function=self.ef, configuration={"hnsw": HNSW}, metadata={"embedder": model})
        except Exception as exc:  # chroma raises many types for an unreadable store
            raise CorruptData(f"{path}: cannot open the chroma store ({type(exc).__name__}: {exc})") from exc
        if (self.col.metadata or {}).get("embedder") != model:
            self.client.close()
            raise EmbedderMismatch(f"{path}: vectors are from {self.col.metadata!r}, not {model}")
        self.vectorless = len(self.col.get(where={"has_vector": False}, include=[])["ids"])

    def close(self) -> None:
        self.client.close()

    def storage_bytes(self) -> int:
        return dir_bytes(self.data_dir)

    def _taken(self, mid: str) -> bool:
        return bool(self.col.get(ids=[mid], include=[])["ids"])

    def write_memory(self, text, task=None, insights=None, context=None, symbol_keys=None, tags=None,
                     metadata=None) -> str:
        inp = validate_memory(text, task, insights, context, symbol_keys, tags, metadata)
        vec = self.ef.embed_one(inp.text)
        has_vector = bool(np.any(vec))
        now = self.clock.now()
        mid = new_memory_id(now, inp.text, self._taken)
        self.col.add(ids=[mid], documents=[inp.text], embeddings=[vec], metadatas=[to_metadata(inp, now, has_vector)])
        self.vectorless += not has_vector
        return mid

    def get_memory(self, memory_id: str) -> dict[str, Any] | None:
        res = self.col.get(ids=[check_id(memory_id)], include=RECORD)
        return to_record(res["ids"][0], res["documents"][0], res["metadatas"][0]) if res["ids"] else None

    def _records(self, flt: MemoryFilter) -> list[dict[str, Any]]:
        """Every filtered record, newest first (created_at descending, then id)."""
        res = self.col.get(where=where_of(flt), include=RECORD)
        recs = [to_record(*row) for row in zip(res["ids"], res["documents"], res["metadatas"])]
        return newest_first(recs)

    def list_memories(self, task=None, context=None, limit=50, offset=0) -> list[dict[str, Any]]:
        flt = make_filter(task=task, context=context)
        return page(self._records(flt), limit, offset)

    def search_memories(self, query=None, task=None, context=None, insights=None, tags=None, top_k=10,
                        where_metadata=None) -> list[Hit]:
        if where_metadata is not None:
            raise InvalidArgument("backend 'chroma' does not offer where_metadata (memory.metadata_filters)")
        flt = make_filter(task, context, insights, tags)
        top_k, query = check_count("top_k", top_k), check_query(query)
        if query is None:
            return [Hit(r["id"], 0.0) for r in self._records(flt)[:top_k]]
        hits = self._nearest(self.ef.embed_one(query), flt, top_k)
        if not is_empty(flt) and len(hits) < top_k:
            seen = {h.id for h in hits}
            rest = sorted(set(self.col.get(where=where_of(flt), include=[])["ids"]) - seen)
            hits += [Hit(mid, 0.0) for mid in rest[: top_k - len(hits)]]
        return hits

    def _nearest(self, vec: np.ndarray, flt: MemoryFilter, top_k: int) -> list[Hit]:
        if top_k == 0 or not np.any(vec):
            return []
        extra = ({"has_vector": True},) if self.vectorless else ()
        res = self.col.query(query_embeddings=[vec], n_results=top_k, where=where_of(flt, *extra),
                             include=["distances"])
        pairs = [(mid, 1.0 - float(d)) for mid, d in zip(res["ids"][0], res["distances"][0])]
        return [Hit(mid, s) for mid, s in sorted(pairs, key=lambda p: (-p[1], p[0]))]

    def delete_memory(self, memory_id: str) -> bool:
        res = self.col.get(ids=[check_id(memory_id)], include=["metadatas"])
        if not res["ids"]:
            return False
        self.col.delete(ids=res["ids"])
        self.vectorless -= not res["metadatas"][0]["has_vector"]
        return True
