"""`GraphStore`: the LMDB graph memory layer of seed 003 (nodes, edges, policy KV, history).

    with GraphStore.open(path, clock=LogicalClock(), telemetry=ListSink()) as g:
        g.put_node("file:src/a.py", "file", {"lang": "py"})
        g.put_edge("file:src/a.py", "defines", "sym:src/a.py#f:function:1:3")
        g.get_out("file:src/a.py")                    # [EdgeRef(src, rel, dst, rev)]
        g.get_out("file:src/a.py", at=At.rev(1))      # exactly as after revision 1

Ids are canonical key strings (`reference.keys`), stored as u64 `hash64` ids.
Every write is one revision; every read takes `at=At.rev(n) | At.ts(x) | None`.
Reads open their own LMDB read transaction, so any thread may call them; writes
are serialised. `batch()` groups writes into one transaction (still one revision
per op) for bulk ingest. See README.md for formats and decisions.
"""
from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import lmdb

from reference.graph.adjacency import CompactionPolicy
from reference.graph.errors import MapFull, NotFound, ReadOnly, StoreClosed, StoreError
from reference.graph.envpool import SharedEnv, acquire, release
from reference.graph.expected import ExpectedRecords
from reference.graph.file_check import check_files
from reference.graph.lmdb_errors import lmdb_errors
from reference.graph.reads import GraphReads
from reference.graph.redaction import GraphRedaction
from reference.graph.writes import GraphWrites
from reference.graph.schema import initialise, is_initialised, load_relations
from reference.graph.view import GraphView
from reference.graph.writer import GraphWriter
from reference.keys import hash64
from reference.patterns.lazy_redactor import shared_secrets_redactor
from reference.telemetry import NullSink

DEFAULT_MAP_SIZE = 1 << 32  # 4 GiB of address space; the file grows as data does, the map doubles when full


class GraphStore(GraphWrites, GraphReads):
    """One LMDB environment directory holding the graph; see the module docstring."""

    def __init__(self, shared: SharedEnv, clock: Any, telemetry: Any, policy: CompactionPolicy,
                 readonly: bool, adjacency_cache: int = 1 << 14, redactor: Callable[[str], str] | None = None) -> None:
        env = shared.env
        self._shared = shared
        self._env = env
        self._readonly = readonly
        self._clock = clock
        self._sink = telemetry if telemetry is not None else NullSink()
        self._emit_on = not isinstance(self._sink, NullSink)
        self._policy = policy
        self._hash = functools.lru_cache(maxsize=1 << 17)(hash64)
        self._names: dict[int, str] = {}
        self._adj_cache: dict[tuple[bytes, bytes], tuple] = {}  # exact: keyed by the list's own bytes
        self._adj_cache_size = adjacency_cache
        self._gate = shared.gate
        self._wlock = shared.wlock
        self._local = threading.local()
        self._warned: set[bytes] = set()
        self._context: tuple[str | None, str | None] = (None, None)
        self._redaction = GraphRedaction(redactor)
        self._expected = ExpectedRecords()  # read-side check for vanished records (expected.py)
        with env.begin() as txn:
            self._rels = load_relations(txn)
        self.path = Path(env.path())

    @classmethod
    def open(cls, path: str | os.PathLike, clock: Any, telemetry: Any = None, *, map_size: int = DEFAULT_MAP_SIZE,
             compaction: CompactionPolicy | None = None, sync: bool = True, readonly: bool = False,
             adjacency_cache: int = 1 << 14, redactor: Callable[[str], str] | None = None,
             redact: bool = True) -> GraphStore:
        """Open (creating if needed) the store in directory `path`.

        `clock` gives `now()` for writes with `ts=None` (the store never reads wall time
        itself); `telemetry` is a `TelemetrySink`. `sync=False` skips fsync at commit
        (faster, for tests and scratch stores; a crash may lose the last commits).
        `adjacency_cache` bounds the decoded-list cache of latest `get_out`/`get_in`
        (entries; 0 turns it off). `redactor` (text -> text) is applied to every id, name
        and payload string written or looked up (see redaction.py); by default the built-in
        `pat:secrets`, compiled on the first write; `redact=False` stores strings as given.
        """
        if clock is None or not callable(getattr(clock, "now", None)):
            raise TypeError("GraphStore.open needs clock= (an object with now(); e.g. reference.clock.LogicalClock)")
        path = Path(path)
        check_files(path)
        if not readonly:
            path.mkdir(parents=True, exist_ok=True)
        elif not (path / "data.mdb").exists():
            raise NotFound(f"no graph store at {path} (no data.mdb)")
        with lmdb_errors(path):
            return cls._open(path, clock, telemetry, map_size, compaction, sync, readonly, adjacency_cache,
                             redactor, redact)

    @classmethod
    def _open(cls, path: Path, clock: Any, telemetry: Any, map_size: int, compaction: CompactionPolicy | None,
              sync: bool, readonly: bool, adjacency_cache: int, redactor: Any, redact: bool) -> GraphStore:
        shared = acquire(str(path), map_size, readonly, sync)
        try:
            env = shared.env
            with env.begin() as txn:
                ready = is_initialised(txn)
            if not ready:
                if readonly:
                    raise StoreError(f"graph store at {path} is empty and opened read-only")
                with shared.wlock, env.begin(write=True) as txn:
                    if not is_initialised(txn):
                        initialise(txn)
            if redactor is None and redact:
                redactor = shared_secrets_redactor()
            return cls(shared, clock, telemetry, compaction or CompactionPolicy(), readonly, adjacency_cache,
                       redactor if redact else None)
        except BaseException:
            release(shared)
            raise

    def close(self) -> None:
        """Close this handle; the environment closes with the last handle on it in this process."""
        if self._env is not None:
            self._env = None
            release(self._shared)

    def __enter__(self) -> GraphStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def set_context(self, run_id: str | None = None, task_id: str | None = None) -> None:
        """Default run/task ids for writes that pass none, and for read telemetry."""
        self._context = (self._redaction.key(run_id), self._redaction.key(task_id))

    # -- transactions ---------------------------------------------------------
    def _check_open(self) -> Any:
        if self._env is None:
            raise StoreClosed(f"graph store at {self.path} is closed")
        return self._env

    def _writable(self) -> Any:
        env = self._check_open()
        if self._readonly:
            raise ReadOnly(f"graph store at {self.path} was opened read-only")
        if self._shared.writer_thread == threading.get_ident():
            raise StoreError(f"another GraphStore handle on {self.path} has a batch open in this thread; "
                             "write through that handle (a second write transaction here would deadlock)")
        return env

    def _read(self, fn: Callable[[GraphView], Any]) -> Any:
        with lmdb_errors(self.path):
            return self._read_raw(fn)

    def _read_raw(self, fn: Callable[[GraphView], Any]) -> Any:
        env = self._check_open()
        self._gate.enter()
        try:
            try:
                txn = env.begin()
            except lmdb.MapResizedError:  # another process grew the map; adopt its size
                self._gate.leave()
                self._gate.exclusive(lambda: env.set_mapsize(0))
                self._gate.enter()
                txn = env.begin()
            try:
                return fn(GraphView(txn, self._rels, self._names))
            finally:
                txn.abort()
        finally:
            self._gate.leave()

    @contextmanager
    def batch(self) -> Iterator[GraphStore]:
        """Run the writes in the block as one LMDB transaction (all or nothing).

        Each write still gets its own revision. Other threads' writes wait; reads
        (on any thread, this one included) see the state before the batch until it
        commits. Telemetry for the batch's writes is emitted at commit. If the LMDB
        map fills up inside a batch, the batch is rolled back, the map grown, and
        `MapFull` raised: run the batch again.
        """
        if getattr(self._local, "writer", None) is not None:
            yield self
            return
        env = self._writable()
        with self._wlock:
            self._ensure_room(env)
            w = self._local.writer = self._new_writer(env)
            self._shared.writer_thread = threading.get_ident()
            try:
                yield self
                if w.poisoned:
                    raise StoreError("batch not committed: a write inside it failed after it had started to change data")
                try:
                    w.flush()
                    w.txn.commit()
                except lmdb.MapFullError:
                    w.full = True
                    raise MapFull(f"graph store at {self.path}: LMDB map full at commit; batch rolled back") from None
                w.txn = None
            finally:
                self._local.writer = None
                self._shared.writer_thread = None
                if w.txn is not None:
                    w.txn.abort()
                    if w.full:  # grow generously: the caller must rerun the whole batch
                        self._grow(env, env.info()["map_size"] * 4)
        self._after_commit(w)

    def _new_writer(self, env: Any) -> GraphWriter:
        w = GraphWriter(env.begin(write=True), self._rels, self._names, self._hash, self._clock, self._policy,
                        self._warned)
        w.poisoned = w.full = False
        return w

    def _after_commit(self, w: GraphWriter) -> None:
        self._expected.extend(w.logged)   # keeps the miss index current without rereading the log
        self._names.update(w.new_names)
        self._rels = w.rels
        for event in w.events:
            self._sink.emit(event)

    def _ensure_room(self, env: Any) -> None:
        """Grow the map before a write transaction when it is over half full (no txn of ours is open)."""
        info = env.info()
        used = (info["last_pgno"] + 1) * env.stat()["psize"]
        if used * 2 > info["map_size"]:
            self._grow(env, max(info["map_size"] * 2, used * 4))

    def _grow(self, env: Any, size: int | None = None) -> None:
        new = size or env.info()["map_size"] * 2
        self._gate.exclusive(lambda: env.set_mapsize(new))

    def _write(self, op: Callable[[GraphWriter], Any]) -> Any:
        with lmdb_errors(self.path):
            return self._write_raw(op)

    def _write_raw(self, op: Callable[[GraphWriter], Any]) -> Any:
        w = getattr(self._local, "writer", None)
        if w is None:
            return self._write_one(op)
        if w.poisoned:
            raise StoreError("this batch already failed; leave the `with batch()` block to roll it back")
        head, lists = w.head, len(w.lists)
        try:
            return op(w)
        except lmdb.MapFullError:
            w.poisoned = w.full = True
            raise MapFull(f"graph store at {self.path}: LMDB map full inside a batch: the batch is rolled back "
                          "and the map grown; run the batch again") from None
        except BaseException:
            w.poisoned = w.head != head or len(w.lists) != lists
            raise

    def _write_one(self, op: Callable[[GraphWriter], Any]) -> Any:
        """One op in its own transaction; a full map is grown and the op retried."""
        env = self._writable()
        while True:
            with self._wlock:
                self._ensure_room(env)
                w = self._local.writer = self._new_writer(env)
                self._shared.writer_thread = threading.get_ident()
                try:
                    result = op(w)
                    w.flush()
                    w.txn.commit()
                    w.txn = None
                except lmdb.MapFullError:
                    w.full = True
                finally:
                    self._local.writer = None
                    self._shared.writer_thread = None
                    if w.txn is not None:
                        w.txn.abort()
                        if w.full:
                            self._grow(env)
            if not w.full:
                self._after_commit(w)
                return result
