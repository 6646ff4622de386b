"""Changes to memories (seed 000 §3): write, write a batch, update metadata, delete.

A write validates everything first, then, in one tracker transaction: allocates the next
per-store sequence number, derives the id, appends the §3.2 JSON record to `blob.dat`, inserts
the row and its FTS entry (`memory_insert.py`), moves the memories revision and puts the
vector; a failed transaction leaves no vector behind. After the commit the filter index
is told (`note`), with the revision the change moved.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from reference import memory_insert
from reference.errors import NotFound
from reference.memory_args import InvalidArgument, check_memory_id
from reference.memory_input import check_metadata, redact_input, redact_value, validate_memory
from reference.memory_record import MemoryEntry, memory_blob_record
from reference.tracker import memory_revision
from reference.tracker.filter_labels import labels_of
from reference.vector_search import KIND_TAGS

if TYPE_CHECKING:
    from reference.memories import Memories

_RECORD_FIELDS = {"text", "task", "insights", "context", "symbol_keys", "tags", "metadata"}


def write(memories: Memories, text: Any, task: Any = None, insights: Any = None, context: Any = None,
          symbol_keys: Any = None, tags: Any = None, metadata: Any = None) -> MemoryEntry:
    """Store one memory at the clock's now."""
    inp = redact_input(validate_memory(text, task, insights, context, symbol_keys, tags, metadata), memories.redactor)
    vec = memories.embedder.embed([inp.text])[0]
    put = False
    try:
        with memories.tracker.tx() as conn:
            entry = memory_insert.insert_many(memories, conn, [inp], [memories.clock.now()])[0]
            rev = memory_revision.bump(conn)
            kh = entry.key_hash
            if np.any(vec):
                memories.vectors.put(kh, vec, KIND_TAGS["memory"])
                put = True
    except BaseException:
        if put:
            memories.vectors.remove(kh)  # the row was rolled back: do not leave its vector behind
        memories.filter_index.reset()
        raise
    note(memories, entry, rev)
    return entry


def write_many(memories: Memories, records: list[dict[str, Any]], times: list[float] | None = None
               ) -> list[MemoryEntry]:
    """Several writes in one transaction: all validated first, embedded in one batch, vectors in one append.

    Each record holds `write`'s arguments by name (`text` required). The
    entries get the ids, rows and blob records that the same writes made
    one by one would get; nothing is stored if any record is invalid.
    `times` (one per record, not decreasing) replays a timed history in one batch: the
    clock is set to each (`LogicalClock.set`) before its record is stored, as a caller
    setting the clock between single writes would.
    """
    clock = memories.clock
    if times is not None:
        if not callable(getattr(clock, "set", None)):
            raise InvalidArgument("times= needs a clock with set() (a LogicalClock)")
        if len(times) != len(records):
            raise InvalidArgument(f"{len(times)} times for {len(records)} records")
        if any(not isinstance(t, (int, float)) or isinstance(t, bool) for t in times) \
                or any(b < a for a, b in zip([clock.now(), *times], times)):
            raise InvalidArgument("times must be numbers, none before the clock's now or the one before it")
    inputs = []
    for i, rec in enumerate(records):
        if not isinstance(rec, dict):
            raise InvalidArgument(f"record {i} must be a dict of write_memory arguments, got {type(rec).__name__}")
        unknown = sorted(set(rec) - _RECORD_FIELDS)
        if unknown:
            raise InvalidArgument(f"record {i}: unknown field(s) {', '.join(unknown)[:80]}")
        inputs.append(redact_input(validate_memory(rec.get("text"), rec.get("task"), rec.get("insights"),
                                                   rec.get("context"), rec.get("symbol_keys"), rec.get("tags"),
                                                   rec.get("metadata")), memories.redactor))
    if not inputs:
        return []
    vecs = np.asarray(memories.embedder.embed([inp.text for inp in inputs]), dtype=np.float32)
    entries: list[MemoryEntry] = []
    put: list[int] = []
    try:
        with memories.tracker.tx() as conn:
            nows = []
            for i in range(len(inputs)):
                if times is not None:
                    clock.set(float(times[i]))
                nows.append(clock.now())
            entries = memory_insert.insert_many(memories, conn, inputs, nows)
            last = memory_revision.bump(conn, len(entries))
            nonzero = np.flatnonzero(vecs.any(axis=1))
            if nonzero.size:
                put = [entries[i].key_hash for i in nonzero]
                memories.vectors.put_many(put, vecs[nonzero], KIND_TAGS["memory"])
    except BaseException:
        if put:
            memories.vectors.remove_many(put)  # the rows were rolled back: do not leave their vectors behind
        raise
    for i, entry in enumerate(entries, start=last - len(entries) + 1):
        note(memories, entry, i)   # revisions as the writes one by one would have moved it
    return entries


def update_metadata(memories: Memories, memory_id: str, updates: Any, *, replace_all: bool = False) -> MemoryEntry:
    """Merge `updates` into a memory's metadata (or replace it); appends a new blob record."""
    old = memories.get(memory_id)
    if old is None:
        raise NotFound(f"no memory {memory_id!r}")
    upd = check_metadata(updates)
    if memories.redactor is not None:
        upd = redact_value(upd, memories.redactor)
    meta = check_metadata(upd if replace_all else {**old.metadata, **upd})
    now = memories.clock.now()
    with memories.tracker.tx() as conn:
        entry = replace(old, metadata=meta, updated_at=now)
        ref = memories.blob.append(memory_blob_record(entry))
        entry = replace(entry, blob_offset=ref.offset, blob_length=ref.length)
        memories.tracker.memories.update_metadata(conn, entry.key_hash, meta, now, ref.offset, ref.length)
        rev = memory_revision.bump(conn)
    note(memories, entry, rev)
    return entry


def delete(memories: Memories, memory_id: str) -> bool:
    """Delete a memory's row and vector; False if there is no such memory."""
    kh = memories.tracker.hash_fn(check_memory_id(memory_id))
    with memories.tracker.tx() as conn:
        row = memories.tracker.memories.get(conn, kh)
        if row is None or row.id != memory_id:
            return False
        memories.tracker.memories.delete(conn, kh)
        rev = memory_revision.bump(conn)
        memories.vectors.remove(kh)
    memories.filter_index.note_delete(kh, rev)
    return True


def note(memories: Memories, entry: MemoryEntry, rev: int) -> None:
    """Tell the filter index (and its followers) of a written entry, at revision `rev`."""
    memories.filter_index.note_write(entry.key_hash, labels_of(entry.task, entry.context, entry.insights,
                                                               entry.tags, entry.metadata), rev)
