"""A memory's id, key, blob record and row, stored inside the caller's transaction (seed 000 §3).

Ids are `mem:` + 8 hex digits of BLAKE2b(created_at, sequence number, salt, text); the
salt only moves if that id (or its hash) is already taken, so the same operations with the
same clock give the same ids. `insert_many` stores a batch with a few statements and gives
the ids, rows and blob bytes that `insert` one by one would give.
"""
from __future__ import annotations

import hashlib
import sqlite3
from typing import TYPE_CHECKING, Any

from reference.errors import KeyCollision
from reference.memories.record import MemoryEntry, memory_blob_record
from reference.tracker.tracker import SET_SEQ

if TYPE_CHECKING:
    from reference.blob import Blob
    from reference.tracker import Tracker

MAX_SALT = 64


def derive_memory_id(created_at: float, seq: int, text: str, salt: int = 0) -> str:
    """`mem:` + the first 8 hex digits of BLAKE2b over (created_at, seq, salt, text)."""
    h = hashlib.blake2b(f"{created_at!r}\x1f{seq}\x1f{salt}\x1f{text}".encode("utf-8"), digest_size=4)
    return "mem:" + h.hexdigest()


def with_blob(e: MemoryEntry, offset: int, length: int) -> MemoryEntry:
    """`replace(e, blob_offset=offset, blob_length=length)` by the constructor (half the cost, same entry)."""
    return MemoryEntry(e.id, e.key_hash, e.task, e.insights, e.context, e.symbol_keys, e.text, e.tags, e.metadata,
                       e.created_at, e.updated_at, offset, length)


def insert_many(tracker: Tracker, blob: Blob, conn: Any, inputs: list[Any], nows: list[float]
                ) -> list[MemoryEntry]:
    """`insert` of each input at its time, in order, with a few statements for the whole batch.

    When no salt-0 id is taken (by an earlier row or by another input of the batch: the usual
    case), the sequence numbers, keys, blob records and rows go in together; otherwise one
    by one. The same ids, rows and blob bytes either way.
    """
    row = conn.execute("SELECT value FROM meta WHERE name = 'seq:memory'").fetchone()
    try:
        seq0 = int(row[0]) if row else 0
    except ValueError:
        return [insert(tracker, blob, conn, inp, now) for inp, now in zip(inputs, nows)]  # next_seq names the damage
    mids = [derive_memory_id(now, seq0 + 1 + i, inp.text, 0) for i, (inp, now) in enumerate(zip(inputs, nows))]
    hashes = [tracker.hash_fn(m) for m in mids]
    if len(inputs) == 1:
        # one key, one statement: its UNIQUE constraints (key_hash, key) answer `any_taken` in the insert
        # itself, which a failing constraint leaves undone (one statement fewer a single write)
        try:
            tracker.keys.register_new(conn, mids, hashes, "memory")
        except sqlite3.IntegrityError:
            return [insert(tracker, blob, conn, inputs[0], nows[0])]
    elif len(set(hashes)) < len(hashes) or len(set(mids)) < len(mids) or tracker.keys.any_taken(conn, mids, hashes):
        return [insert(tracker, blob, conn, inp, now) for inp, now in zip(inputs, nows)]
    else:
        tracker.keys.register_new(conn, mids, hashes, "memory")
    conn.execute(SET_SEQ, ("seq:memory", str(seq0 + len(inputs))))
    entries = [MemoryEntry(mid, kh, inp.task, inp.insights, inp.context, inp.symbol_keys, inp.text, inp.tags,
                           inp.metadata, now, now, None, None)
               for mid, kh, inp, now in zip(mids, hashes, inputs, nows)]
    refs = blob.append_many([memory_blob_record(e) for e in entries])
    entries = [with_blob(e, ref.offset, ref.length) for e, ref in zip(entries, refs)]
    tracker.memories.insert_many(conn, entries)
    return entries


def insert(tracker: Tracker, blob: Blob, conn: Any, inp: Any, now: float) -> MemoryEntry:
    """Allocate the id, append the blob record and insert the row (inside the caller's transaction)."""
    seq = tracker.next_seq(conn, "memory")
    salt = 0
    mid = derive_memory_id(now, seq, inp.text, salt)
    while tracker.keys.is_taken(conn, mid):
        salt += 1
        if salt > MAX_SALT:
            raise KeyCollision(f"no free memory id after {MAX_SALT} salts (last tried {mid!r}); "
                               "is the key hash function degenerate?")
        mid = derive_memory_id(now, seq, inp.text, salt)
    kh = tracker.keys.register(conn, mid, "memory")
    entry = MemoryEntry(mid, kh, inp.task, inp.insights, inp.context, inp.symbol_keys, inp.text, inp.tags,
                        inp.metadata, now, now, None, None)
    ref = blob.append(memory_blob_record(entry))
    entry = with_blob(entry, ref.offset, ref.length)
    tracker.memories.insert(conn, entry)
    return entry
