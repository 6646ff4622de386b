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
`embedder`, `clock`) for the parts of the store built on them.

The operations are plain functions taking the store, bound here as its methods, one module
per concept: `store_writes.py` (memory changes and the layers' listeners), `store_reads.py`
(memory reads and searches), `store_code.py` (the code index and unified search),
`store_content.py` (stored bytes, counts and file sizes). `guard_methods` wraps every public
one (`store_guard.py`).
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from reference import store_code, store_content, store_reads, store_writes
from reference.blob import Blob
from reference.clock import Clock
from reference.embed import Embedder, HashingEmbedder
from reference.errors import StoreError
from reference.indexer import Indexer
from reference.keys import hash64
from reference.memories import InvalidArgument, Memories
from reference.memory_record import MemoryEntry
from reference.patterns import PatternSetManager, Redactor
from reference.store_content import DATA_FILES
from reference.store_guard import guard_methods
from reference.store_telemetry import StoreTelemetry
from reference.telemetry import TelemetrySink
from reference.tracker import Tracker
from reference.vectors import VectorCache

__all__ = ["DATA_FILES", "InvalidArgument", "MemoryStore", "StoreClosed"]


class StoreClosed(StoreError):
    """The store was closed."""


class MemoryStore:
    """Memories, code index and unified search over one data directory."""

    def __init__(self, data_dir: Path, clock: Clock, embedder: Embedder, telemetry: TelemetrySink | None,
                 redactor: Callable[[str], str] | None, hash_fn: Callable[[str], int], redact: bool = True) -> None:
        self.data_dir, self.clock, self.embedder = data_dir, clock, embedder
        self.telemetry = StoreTelemetry(telemetry, clock)
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
            self.tracker.close()
            self.vectors.close()
            self.blob.close()

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

    # -- memories (store_writes.py, store_reads.py) -----------------------------------
    write_memory = store_writes.write_memory
    write_memories = store_writes.write_memories
    _notify = store_writes.notify
    add_write_listener = store_writes.add_write_listener
    add_delete_listener = store_writes.add_delete_listener
    update_metadata = store_writes.update_metadata
    delete_memory = store_writes.delete_memory
    get_memory = store_reads.get_memory
    search_memories = store_reads.search_memories
    keyword_search = store_reads.keyword_search
    list_memories = store_reads.list_memories
    iter_memories = store_reads.iter_memories
    vector_scores = store_reads.vector_scores
    fts_scores = store_reads.fts_scores

    # -- code index and unified search (store_code.py) ----------------------------------
    search_all = store_code.search_all
    vector_topk = store_code.vector_topk
    code_search = store_code.code_search
    symbol_search = store_code.symbol_search
    code_keyword_search = store_code.code_keyword_search
    index_file = store_code.index_file
    index_directory = store_code.index_directory
    register_file = store_code.register_file

    # -- stored bytes and sizes (store_content.py) ----------------------------------------
    read_content = store_content.read_content
    scan_content = store_content.scan_content
    stats = store_content.stats


MemoryStore = guard_methods(MemoryStore)


def _secrets_redactor(patterns: PatternSetManager) -> Callable[[str], str]:
    """Replace every `pat:secrets` match with a marker naming the pattern."""
    redactor = Redactor(patterns)
    return lambda text: redactor.redact(text).text
