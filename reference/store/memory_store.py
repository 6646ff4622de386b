"""`MemoryStore`: the reference store facade over one data directory.

    store = MemoryStore.open(data_dir, clock=LogicalClock())
    entry = store.write_memory("token refresh races", task="task:debug", context=["context:auth"])
    hits = store.search_memories("refresh race", context=["context:auth"])

The data directory holds `tracker.db`, `blob.dat`, `vectors.f32`,
`vectors.tags`, `vectors.keys` and `vectors.sums` (formats and integrity
checks in reference/README.md). Every timestamp comes from the injected
clock; the optional redactor is applied to every text before it reaches the
blob, the tracker, FTS or the vectors; every operation emits a telemetry
event. Components are public attributes (`tracker`, `blob`, `vectors`,
`embedder`, `clock`, `memories`, `code`) for the parts of the store built on them.

The facade checks the store is open, opens the operation's telemetry event and hands the
call to its part: `Memories` (`reference/memories/`) for memories, `CodeIndex`
(`code_index.py`) for the code index. A memory write and its layers' listeners share one
transaction. `guard_methods` wraps every public method (`guard.py`).
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from reference.blob import Blob
from reference.clock import Clock
from reference.code.indexer import Indexer, IndexResult
from reference.embed import Embedder, HashingEmbedder
from reference.errors import NotFound, StoreError
from reference.keys import hash64
from reference.manifest.store_files import check_store_files, record_store_files
from reference.memories.args import InvalidArgument, check_count
from reference.memories.memories import Memories
from reference.memories.record import MemoryEntry, SearchHit
from reference.patterns import PatternSetManager, Redactor
from reference.store.code_index import CodeIndex
from reference.store.guard import guard_methods
from reference.store.telemetry import StoreTelemetry
from reference.telemetry import TelemetrySink
from reference.tracker import Tracker
from reference.tracker.batch_cache import batch_page_cache
from reference.vectors import VectorCache
from reference.vectors.search import check_kinds, topk_hits

log = logging.getLogger("reference.store")

__all__ = ["DATA_FILES", "InvalidArgument", "MemoryStore", "StoreClosed"]

DATA_FILES = ("tracker.db", "tracker.db-wal", "tracker.db-shm", "blob.dat", "vectors.f32", "vectors.tags",
              "vectors.sums", "vectors.keys")


class StoreClosed(StoreError):
    """The store was closed."""


class MemoryStore:
    """Memories, code index and unified search over one data directory."""

    def __init__(self, data_dir: Path, clock: Clock, embedder: Embedder, telemetry: TelemetrySink | None,
                 redactor: Callable[[str], str] | None, hash_fn: Callable[[str], int], redact: bool = True) -> None:
        self.data_dir, self.clock, self.embedder = data_dir, clock, embedder
        self.telemetry = StoreTelemetry(telemetry, clock)
        # files cut, deleted or not whole, named before the blob and vector repairs could cut the rest
        # down to them (reference/manifest/README.md)
        check_store_files(data_dir)
        self.blob = Blob(data_dir / "blob.dat")
        try:
            self.vectors = VectorCache(data_dir, embedder.dim, model=embedder.name)
            try:
                self.tracker = Tracker(data_dir / "tracker.db", hash_fn=hash_fn)
            except BaseException:
                self.vectors.close()
                raise
        except BaseException:
            self.blob.close()
            raise
        # Pattern sets live with the store: `pattern_scan` reads blob slices through the
        # tracker, and by default every write passes the secrets set before storage (seed 002).
        self.patterns = PatternSetManager(data_dir, telemetry=telemetry, clock=clock)
        if redactor is None and redact:
            redactor = _secrets_redactor(self.patterns)
        self.redactor = redactor
        self.memories = Memories(self.tracker, self.blob, self.vectors, embedder, clock, redactor)
        self.indexer = Indexer(self.tracker, self.blob, self.vectors, embedder, clock, redactor)
        self.code = CodeIndex(self.tracker, self.vectors, self.memories, self.indexer, self.telemetry)
        self._closed = False
        # Layers built on the store (knowledge, memory lane, project memory) keep
        # their state here, keyed by name, so each is created once per open store.
        self.extensions: dict[str, Any] = {}
        self._write_listeners: list[tuple[Callable[[MemoryEntry], None], Callable | None]] = []
        self._delete_listeners: list[Callable[[str], None]] = []

    @classmethod
    def open(cls, data_dir: str | Path, *, clock: Clock, embedder: Embedder | None = None,
             telemetry: TelemetrySink | None = None, redactor: Callable[[str], str] | None = None,
             hash_fn: Callable[[str], int] = hash64, redact: bool = True) -> "MemoryStore":
        """Open (creating if needed) the store in `data_dir`; recovers a torn blob/vector tail."""
        if clock is None or not callable(getattr(clock, "now", None)):
            raise StoreError("MemoryStore.open needs clock= (an object with now() -> float)")
        path = Path(data_dir)
        path.mkdir(parents=True, exist_ok=True)
        return cls(path, clock, embedder or HashingEmbedder(), telemetry, redactor, hash_fn, redact)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.record_files()
            self.tracker.close()
            self.vectors.close()
            self.blob.close()

    def record_files(self) -> None:
        """Write `manifest.json`: the files and the whole-record lengths this handle vouches for (at close
        and at checkpoints; reference/manifest/README.md). A failure is logged, never raised: the data
        itself is unaffected, and `verify` reports a stale or missing manifest."""
        try:
            record_store_files(self.data_dir, self.blob.end, self.vectors.row_count(), self.embedder.dim)
        except (OSError, ValueError, StoreError) as exc:
            log.warning("%s: manifest.json not written: %s", self.data_dir, exc)

    def __enter__(self) -> "MemoryStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def set_context(self, scope: str | None = None, run_id: str | None = None, task_id: str | None = None) -> None:
        """Scope, run and task ids stamped on every telemetry event from now on."""
        self.telemetry.set_context(scope, run_id, task_id)

    def _check_open(self) -> None:
        if self._closed:
            raise StoreClosed(f"store {self.data_dir} is closed")

    # -- memory changes: each in one transaction with the layers' listeners ----------
    def write_memory(self, text: str, task: str | None = None, insights: list[str] | None = None,
                     context: list[str] | None = None, symbol_keys: list[int] | None = None,
                     tags: list[str] | None = None, metadata: dict[str, Any] | None = None) -> MemoryEntry:
        """Store one memory; the layers listening derive their rows in the same transaction."""
        self._check_open()
        with self.telemetry.measure("write", "memory") as ev:
            with self.tracker.tx():
                entry = self.memories.write(text, task, insights, context, symbol_keys, tags, metadata)
                ev.memory_id = entry.id
                self._notify([entry])
        return entry

    def write_memories(self, records: list[dict[str, Any]], times: list[float] | None = None) -> list[MemoryEntry]:
        """Write several memories in one transaction (see `Memories.write_many`); listeners run per entry, in order.

        Each record holds `write_memory`'s arguments by name. Same entries as
        the writes one by one, at a fraction of the cost (one commit, one
        embedding batch, one vector append). `times`, one per record, sets a
        `LogicalClock` before each record is stored (a timed history in one batch).
        """
        self._check_open()
        t0 = time.perf_counter()
        records = list(records)
        # a batch's pages do not fit SQLite's default cache: a larger one while it runs (tracker/batch_cache.py)
        with batch_page_cache(self.tracker.conn(), len(records)), self.tracker.tx():
            entries = self.memories.write_many(records, times)
            self._notify(entries)
        # one event per memory, as the writes one by one would give (latency shared equally)
        self.telemetry.emit_each("write", "memory", [(e.id, e.created_at) for e in entries],
                                 (time.perf_counter() - t0) * 1000.0)
        return entries

    def _notify(self, entries: list[MemoryEntry]) -> None:
        """Run the write listeners inside the write's transaction; if one fails, the write is undone."""
        try:
            for fn, batch in self._write_listeners:
                if batch is not None:
                    batch(entries)
                else:
                    for entry in entries:
                        fn(entry)
        except BaseException:
            # the caller's transaction rolls the rows back: drop their vectors and label-index entries too
            self.vectors.remove_many([e.key_hash for e in entries])
            self.memories.filter_index.reset()
            raise

    def add_write_listener(self, fn: Callable[[MemoryEntry], None],
                           batch: Callable[[list[MemoryEntry]], Any] | None = None) -> None:
        """Call `fn(entry)` for every memory written, inside the write's transaction (layers extract
        entities, ...); with `batch`, `batch(entries)` is called instead, once per write or batch."""
        self._write_listeners.append((fn, batch))

    def add_delete_listener(self, fn: Callable[[str], None]) -> None:
        """Call `fn(memory_id)` after a memory is deleted, so layers drop what they derived from it."""
        self._delete_listeners.append(fn)

    def add_update_listener(self, fn: Callable[[MemoryEntry], None]) -> None:
        """Call `fn(entry)`, the memory as updated, for each metadata update of a memory, whoever makes it
        (`update_metadata`, or a layer's own update such as Memory Lane's feedback), inside the update's
        transaction (a listener that raises rolls the update back): a layer re-derives what it took from the
        metadata."""
        self.memories.update_listeners.append(fn)

    def update_metadata(self, memory_id: str, updates: dict[str, Any], *, replace: bool = False) -> MemoryEntry:
        """Merge (or with `replace`, swap in) metadata of an existing memory; `NotFound` if absent."""
        self._check_open()
        with self.telemetry.measure("overwrite", "memory", memory_id):
            return self.memories.update_metadata(memory_id, updates, replace_all=replace)

    def delete_memory(self, memory_id: str) -> bool:
        """Delete a memory; True if it existed (then every delete listener is told)."""
        self._check_open()
        with self.telemetry.measure("delete", "memory", memory_id) as ev:
            found = self.memories.delete(memory_id)
            ev.extra["found"] = found
        if found:
            for listener in self._delete_listeners:
                listener(memory_id)
        return found

    # -- memory reads: filters are validated before the event starts (a bad one raises without an event) ----------
    def get_memory(self, memory_id: str) -> MemoryEntry | None:
        """The memory, or None if there is none with that id."""
        self._check_open()
        with self.telemetry.measure("read", "memory", memory_id) as ev:
            entry = self.memories.get(memory_id)
            ev.extra["found"] = entry is not None
        return entry

    def search_memories(self, query: str | None = None, task: str | None = None, context: list[str] | None = None,
                        insights: list[str] | None = None, tags: list[str] | None = None, top_k: int = 10,
                        where_metadata: dict[str, list] | None = None) -> list[SearchHit]:
        """Seed 000 §4.3 (see `Memories.search`): filtered, ranked by cosine to the query."""
        self._check_open()
        flt = self.memories.filter(task, context, insights, tags, where_metadata)
        with self.telemetry.measure("query", "memory", mode="filtered") as ev:
            hits = self.memories.search(query, flt, top_k)
            ev.extra["results"] = len(hits)
        return hits

    def keyword_search(self, query: str, top_k: int = 10, where_metadata: dict[str, list] | None = None
                       ) -> list[SearchHit]:
        """FTS5 bm25 over text and tags (see `Memories.keyword`)."""
        self._check_open()
        flt = self.memories.filter(where_metadata=where_metadata)
        with self.telemetry.measure("query", "memory", mode="keyword") as ev:
            hits = self.memories.keyword(query, flt, top_k)
            ev.extra["results"] = len(hits)
        return hits

    def list_memories(self, task: str | None = None, context: list[str] | None = None, limit: int = 50,
                      offset: int = 0, where_metadata: dict[str, list] | None = None) -> list[MemoryEntry]:
        """Newest first (see `Memories.list`); `limit` and `offset` from 0 to 2**63-1."""
        self._check_open()
        for name, value in (("limit", limit), ("offset", offset)):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1 << 63:
                raise InvalidArgument(f"{name} must be an integer from 0 to 2**63-1, got {str(value)[:40]}")
        flt = self.memories.filter(task, context, where_metadata=where_metadata)
        with self.telemetry.measure("query", "memory", mode="list") as ev:
            out = self.memories.list(flt, limit, offset)
            ev.extra["results"] = len(out)
        return out

    def iter_memories(self, task: str | None = None, context: list[str] | None = None) -> Iterator[MemoryEntry]:
        """Every matching memory, oldest first (no telemetry: a maintenance scan, not a recall)."""
        self._check_open()
        return self.memories.iter(self.memories.filter(task, context))

    def vector_scores(self, query: str, memory_ids: list[str]) -> dict[str, float]:
        """Cosine of the query with each listed memory (see `Memories.vector_scores`)."""
        self._check_open()
        return self.memories.vector_scores(query, memory_ids)

    def fts_scores(self, query: str, k: int) -> dict[str, float]:
        """Memory id -> -bm25 for the `k` best keyword matches (higher is better)."""
        self._check_open()
        return {h.id: h.score for h in self.memories.keyword(query, self.memories.filter(), check_count("top_k", k))}

    # -- unified vector search over every entity type -------------------------------------
    def search_all(self, query: str, top_k: int = 10, types: list[str] | None = None) -> list[SearchHit]:
        """Seed 000 §4.2: semantic search across files, symbols, chunks and memories."""
        self._check_open()
        kinds = check_kinds(types)
        with self.telemetry.measure("query", None, mode="unified") as ev:
            hits = topk_hits(self.tracker, self.vectors, self.memories.embed_query(query),
                             check_count("top_k", top_k), kinds)
            ev.extra["results"] = len(hits)
        return hits

    def vector_topk(self, query: str, k: int, kinds: tuple[str, ...] | list[str] = ("memory",)) -> list[SearchHit]:
        self._check_open()
        return topk_hits(self.tracker, self.vectors, self.memories.embed_query(query), check_count("top_k", k),
                         check_kinds(kinds))

    # -- the code index (the `CodeIndex` part) ----------------------------------------------
    def index_file(self, path: str | Path, root: str | Path) -> IndexResult:
        self._check_open()
        return self.code.index_file(path, root)

    def index_directory(self, root: str | Path, glob: str = "**/*.py") -> IndexResult:
        self._check_open()
        return self.code.index_directory(root, glob)

    def register_file(self, path: str | Path, root: str | Path) -> dict:
        self._check_open()
        return self.code.register_file(path, root)

    def code_search(self, query: str, top_k: int = 10) -> list[SearchHit]:
        self._check_open()
        return self.code.code_search(query, top_k)

    def symbol_search(self, query: str, top_k: int = 10) -> list[SearchHit]:
        self._check_open()
        return self.code.symbol_search(query, top_k)

    def code_keyword_search(self, query: str, top_k: int = 10) -> list[SearchHit]:
        self._check_open()
        return self.code.code_keyword_search(query, top_k)

    # -- stored bytes and sizes ------------------------------------------------------------
    def read_content(self, key_hash: int) -> bytes:
        """The blob bytes of a file, symbol, chunk or memory, via its tracker row (seed 000 §1.3)."""
        self._check_open()
        with self.telemetry.measure("read", None) as ev:
            conn = self.tracker.conn()
            found = self.tracker.code.locate(conn, key_hash)
            if found is not None:
                ev.entity_type, row = found
                ev.memory_id = self.tracker.keys.get_key(conn, key_hash)
                off, length = row["blob_offset"], row["blob_length"]
            else:
                entry = self.tracker.memories.get(conn, key_hash)
                if entry is None or entry.blob_offset is None:
                    raise NotFound(f"no stored content for key hash {key_hash:#018x}")
                ev.entity_type, ev.memory_id = "memory", entry.id
                off, length = entry.blob_offset, entry.blob_length
            return self.blob.read_slice(off, length)

    def scan_content(self, key_hash: int) -> tuple[str, bytes]:
        """(canonical key, bytes a pattern scan reads) for an indexed item or a memory.

        Files, symbols and chunks give their blob slice (seed 000 §1.3). A memory
        gives its text: its blob record is JSON, whose escaping (`\\"`) would hide
        or shift matches. `NotFound` for an unknown key hash.
        """
        self._check_open()
        if self.tracker.resolve_type(key_hash) == "memory":
            entry = self.tracker.get_memory_by_key(key_hash)
            if entry is not None:
                return entry.id, entry.text.encode("utf-8")
        data = self.read_content(key_hash)
        return self.tracker.keys.get_key(self.tracker.conn(), key_hash), data

    def stats(self) -> dict[str, Any]:
        """Row counts, vector counts, schema version and the size of each file on disk."""
        self._check_open()
        files = {name: (self.data_dir / name).stat().st_size for name in DATA_FILES
                 if (self.data_dir / name).exists()}
        return {
            "counts": self.tracker.counts(),
            "vectors": self.vectors.stats(),
            "schema_version": self.tracker.schema_version(),
            "embedder": {"name": self.embedder.name, "dim": self.embedder.dim},
            "bytes": files,
            "bytes_total": sum(files.values()),
        }


MemoryStore = guard_methods(MemoryStore)


def _secrets_redactor(patterns: PatternSetManager) -> Callable[[str], str]:
    """Replace every `pat:secrets` match with a marker naming the pattern."""
    redactor = Redactor(patterns)
    return lambda text: redactor.redact(text).text
