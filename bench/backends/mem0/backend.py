"""`mem0`: mem0 (`mem0ai`) in-process: `Memory` over Qdrant local, all-MiniLM-L6-v2 vectors, no LLM.

Configured as a team would run it offline (README.md beside this file says why each choice):
- vector store `qdrant` with a local `path` under the data folder (mem0's default store; filters are exact
  payload conditions, applied before ranking);
- embedder: the local all-MiniLM-L6-v2 (`embedder.py`), the same vectors every semantic peer gets;
- `add(text, user_id=..., metadata=..., infer=False)`: the text is stored as written, no LLM extracts facts;
- `search(query, filters=..., top_k=..., threshold=0.0)`: mem0's own ranking (semantic, plus its BM25 and
  entity boosts where those parts can load offline: they cannot, see README.md), 0.0 being the lowest
  threshold mem0 accepts (its default 0.1 drops hits);
- history (`history.db`) in the data folder; telemetry off (`MEM0_TELEMETRY=False`); the Hugging Face hub
  offline (`HF_HUB_OFFLINE=1`) so no part of mem0 can fetch a model.

Ids: mem0's are uuid4, so each memory also carries the harness's deterministic id (`cm_id`, the same rule
as fts-baseline) and every read goes through mem0's filters on it. Times come from the injected clock
(`created_at` in the metadata, which mem0 keeps when given). Taxonomy: `cm_task` = the task slug, and one
flag key per context, insight and tag (`cm_context_<digest>` = true, ...), so that the harness's filters
are mem0 metadata equality filters, ANDed.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any

from reference.clock import Clock, iso
from reference.errors import StoreError
from reference.telemetry import TelemetrySink
from reference.tracker import MemoryFilter

from bench.backends.capabilities import Capability as C
from bench.backends.fts_baseline.records import (
    InvalidArgument, check_count, check_id, check_query, dir_bytes, make_filter, new_memory_id, newest_first, page,
    validate_memory,
)
from bench.backends.interface import Backend, Hit

EXTRA = "pip install 'codemem-bench[mem0]' && codemem-bench models install minilm"
if sys.modules.get("mem0", 0) is None or ("mem0" not in sys.modules and importlib.util.find_spec("mem0") is None):
    raise ImportError(f"backend 'mem0' needs mem0ai, which is not installed: {EXTRA}")

USER = "codemem-bench"      # every memory belongs to one mem0 user: mem0 requires a session id on reads
COLLECTION = "memories"
THRESHOLD = 0.0             # mem0's lowest allowed; its default 0.1 silently drops weak hits
LISTS = ("context", "insights", "tags")


def flag(kind: str, value: str) -> str:
    """The metadata key that marks a memory as having `value` in its `kind` list (payload-key safe)."""
    return f"cm_{kind}_{hashlib.blake2b(value.encode('utf-8'), digest_size=8).hexdigest()}"


def mem0_filters(flt: MemoryFilter, **extra: Any) -> dict[str, Any]:
    """mem0 `filters`: the user, the task slug, one flag per context/insight/tag; all ANDed by mem0."""
    out: dict[str, Any] = {"user_id": USER, **extra}
    if flt.task is not None:
        out["cm_task"] = flt.task
    for kind in LISTS:
        out.update({flag(kind, v): True for v in getattr(flt, kind)})
    return out


def _offline_environment(home: Path) -> None:
    """What mem0 reads at import: telemetry off, its config folder (`MEM0_DIR`) where the harness keeps
    peers, and the hub offline. Set before mem0 is first imported; a caller's own values are kept."""
    os.environ.setdefault("MEM0_TELEMETRY", "False")
    os.environ.setdefault("MEM0_DIR", str(home))
    os.environ.setdefault("HF_HUB_OFFLINE", "1")


class Mem0Backend(Backend):
    """mem0 `Memory` (Qdrant local + MiniLM), infer=False."""

    name = "mem0"
    capabilities = frozenset({
        C.MEMORY_WRITE, C.MEMORY_GET, C.MEMORY_LIST, C.MEMORY_SEARCH, C.MEMORY_FILTERS, C.MEMORY_DELETE,
    })

    def __init__(self, option: str | None = None) -> None:
        super().__init__(option)
        from reference.embed.minilm_files import check_model_dir
        from reference.embed.protocol import EmbedderUnavailable
        try:
            check_model_dir()
        except EmbedderUnavailable as exc:
            raise ImportError(f"backend 'mem0' needs the local all-MiniLM-L6-v2 model: {exc}") from exc

    def open(self, data_dir: Path, clock: Clock, telemetry: TelemetrySink) -> None:
        from bench.backends.mcp.peers import peers_root
        _offline_environment(peers_root() / "mem0")
        from mem0 import Memory

        from bench.backends.mem0.embedder import MiniLMEmbedding

        self.data_dir, self.clock = Path(data_dir), clock
        self.data_dir.mkdir(parents=True, exist_ok=True)
        unused = {"api_key": "unused-offline"}   # mem0 builds OpenAI clients; nothing here calls them
        config = {
            "vector_store": {"provider": "qdrant", "config": {
                "collection_name": COLLECTION, "path": str(self.data_dir / "qdrant"), "embedding_model_dims": 384,
                "on_disk": True}},
            "embedder": {"provider": "openai", "config": {**unused, "embedding_dims": 384}},
            "llm": {"provider": "openai", "config": unused},
            "history_db_path": str(self.data_dir / "history.db"),
        }
        self.memory = Memory.from_config(config)
        self.memory.embedding_model = MiniLMEmbedding()
        # the harness ids in use, read once: Qdrant local filters in Python over every point, so asking
        # mem0 whether an id is taken on each write would make a scenario's writes quadratic
        self._ids = {item["metadata"]["cm_id"] for item in self._items({"user_id": USER})}

    def close(self) -> None:
        self.memory.close()                       # the history database only
        self.memory.vector_store.client.close()   # qdrant local holds a lock on its folder until closed

    def storage_bytes(self) -> int:
        return dir_bytes(self.data_dir)

    # ids ------------------------------------------------------------------
    def _items(self, filters: dict[str, Any], limit: int = 1 << 30) -> list[dict[str, Any]]:
        return self.memory.get_all(filters=filters, top_k=limit)["results"]

    def _item(self, memory_id: str) -> dict[str, Any] | None:
        found = self._items({"user_id": USER, "cm_id": check_id(memory_id)}, limit=1)
        return found[0] if found else None

    def _taken(self, mid: str) -> bool:
        return mid in self._ids

    # memory operations ----------------------------------------------------
    def write_memory(self, text, task=None, insights=None, context=None, symbol_keys=None, tags=None,
                     metadata=None) -> str:
        inp = validate_memory(text, task, insights, context, symbol_keys, tags, metadata)
        now = self.clock.now()
        mid = new_memory_id(now, inp.text, self._taken)
        record = {"task": inp.task, "insights": list(inp.insights), "context": list(inp.context),
                  "symbol_keys": list(inp.symbol_keys), "tags": list(inp.tags), "metadata": inp.metadata}
        md: dict[str, Any] = {"cm_id": mid, "cm_created_at": now, "created_at": iso(now),
                              "cm_record": json.dumps(record, ensure_ascii=False, sort_keys=True)}
        if inp.task is not None:
            md["cm_task"] = inp.task
        for kind in LISTS:
            md.update({flag(kind, v): True for v in getattr(inp, kind)})
        done = self.memory.add(inp.text, user_id=USER, metadata=md, infer=False)["results"]
        if len(done) != 1 or done[0].get("event") != "ADD":
            raise StoreError(f"mem0 did not add the memory (answer: {done!r})")
        self._ids.add(mid)
        return mid

    @staticmethod
    def _record(item: dict[str, Any]) -> dict[str, Any]:
        md = item.get("metadata") or {}
        rec = json.loads(md["cm_record"])
        created_at = float(md["cm_created_at"])
        return {"id": md["cm_id"], "task": rec["task"], "insights": rec["insights"], "context": rec["context"],
                "symbol_keys": rec["symbol_keys"], "text": item["memory"], "tags": rec["tags"],
                "metadata": rec["metadata"], "created_at": created_at, "created_at_iso": iso(created_at)}

    def get_memory(self, memory_id: str) -> dict[str, Any] | None:
        item = self._item(memory_id)
        return self._record(item) if item else None

    def _records(self, flt: MemoryFilter) -> list[dict[str, Any]]:
        """Every filtered record, newest first (created_at descending, then id)."""
        recs = [self._record(i) for i in self._items(mem0_filters(flt))]
        return newest_first(recs)

    def list_memories(self, task=None, context=None, limit=50, offset=0) -> list[dict[str, Any]]:
        flt = make_filter(task=task, context=context)
        return page(self._records(flt), limit, offset)

    def search_memories(self, query=None, task=None, context=None, insights=None, tags=None, top_k=10,
                        where_metadata=None) -> list[Hit]:
        if where_metadata is not None:
            raise InvalidArgument("backend 'mem0' does not offer where_metadata (memory.metadata_filters)")
        flt = make_filter(task, context, insights, tags)
        top_k, query = check_count("top_k", top_k), check_query(query)
        if top_k == 0:
            return []
        if query is None:   # nothing to rank by: the filtered memories, newest first
            return [Hit(r["id"], 0.0) for r in self._records(flt)[:top_k]]
        found = self.memory.search(query, filters=mem0_filters(flt), top_k=top_k, threshold=THRESHOLD)["results"]
        return [Hit(item["metadata"]["cm_id"], float(item["score"])) for item in found]

    def delete_memory(self, memory_id: str) -> bool:
        item = self._item(memory_id)
        if item is None:
            return False
        self.memory.delete(item["id"])
        self._ids.discard(memory_id)
        return True
