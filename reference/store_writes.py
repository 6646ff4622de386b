"""Memory changes through `MemoryStore`: each in one transaction with the layers' listeners, each a telemetry event.

A write's listeners (the knowledge layer, ...) run inside the write's transaction, so a memory
and everything derived from it commit together or not at all; delete listeners run after the
delete. `MemoryStore` binds these functions as its methods (`_notify` as a private one).
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from reference.memory_record import MemoryEntry
from reference.tracker.batch_cache import batch_page_cache

if TYPE_CHECKING:
    from reference.store import MemoryStore


def write_memory(store: MemoryStore, text: str, task: str | None = None, insights: list[str] | None = None,
                 context: list[str] | None = None, symbol_keys: list[int] | None = None,
                 tags: list[str] | None = None, metadata: dict[str, Any] | None = None) -> MemoryEntry:
    """Store one memory; the layers listening derive their rows in the same transaction."""
    store._check_open()
    with store.telemetry.measure("write", "memory") as ev:
        with store.tracker.tx():
            entry = store.memories.write(text, task, insights, context, symbol_keys, tags, metadata)
            ev.memory_id = entry.id
            store._notify([entry])
    return entry


def write_memories(store: MemoryStore, records: list[dict[str, Any]], times: list[float] | None = None
                   ) -> list[MemoryEntry]:
    """Write several memories in one transaction (see `Memories.write_many`); listeners run per entry, in order.

    Each record holds `write_memory`'s arguments by name. Same entries as
    the writes one by one, at a fraction of the cost (one commit, one
    embedding batch, one vector append). `times`, one per record, sets a
    `LogicalClock` before each record is stored (a timed history in one batch).
    """
    store._check_open()
    t0 = time.perf_counter()
    records = list(records)
    # a batch's pages do not fit SQLite's default cache: a larger one while it runs (tracker/batch_cache.py)
    with batch_page_cache(store.tracker.conn(), len(records)), store.tracker.tx():
        entries = store.memories.write_many(records, times)
        store._notify(entries)
    # one event per memory, as the writes one by one would give (latency shared equally)
    store.telemetry.emit_each("write", "memory", [(e.id, e.created_at) for e in entries],
                              (time.perf_counter() - t0) * 1000.0)
    return entries


def notify(store: MemoryStore, entries: list[MemoryEntry]) -> None:
    """Run the write listeners inside the write's transaction; if one fails, the write is undone."""
    try:
        for fn, batch in store._write_listeners:
            if batch is not None:
                batch(entries)
            else:
                for entry in entries:
                    fn(entry)
    except BaseException:
        # the caller's transaction rolls the rows back: drop their vectors and label-index entries too
        store.vectors.remove_many([e.key_hash for e in entries])
        store.memories.filter_index.reset()
        raise


def add_write_listener(store: MemoryStore, fn: Callable[[MemoryEntry], None],
                       batch: Callable[[list[MemoryEntry]], Any] | None = None) -> None:
    """Call `fn(entry)` for every memory written, inside the write's transaction (layers extract
    entities, ...); with `batch`, `batch(entries)` is called instead, once per write or batch."""
    store._write_listeners.append((fn, batch))


def add_delete_listener(store: MemoryStore, fn: Callable[[str], None]) -> None:
    """Call `fn(memory_id)` after a memory is deleted, so layers drop what they derived from it."""
    store._delete_listeners.append(fn)


def update_metadata(store: MemoryStore, memory_id: str, updates: dict[str, Any], *, replace: bool = False
                    ) -> MemoryEntry:
    """Merge (or with `replace`, swap in) metadata of an existing memory; `NotFound` if absent."""
    store._check_open()
    with store.telemetry.measure("overwrite", "memory", memory_id):
        return store.memories.update_metadata(memory_id, updates, replace_all=replace)


def delete_memory(store: MemoryStore, memory_id: str) -> bool:
    """Delete a memory; True if it existed (then every delete listener is told)."""
    store._check_open()
    with store.telemetry.measure("delete", "memory", memory_id) as ev:
        found = store.memories.delete(memory_id)
        ev.extra["found"] = found
    if found:
        for listener in store._delete_listeners:
            listener(memory_id)
    return found
