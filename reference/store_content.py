"""What a `MemoryStore` holds: an item's stored bytes, the bytes a pattern scan reads, counts and file sizes.

`MemoryStore` binds these functions as its methods.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reference.errors import NotFound

if TYPE_CHECKING:
    from reference.store import MemoryStore

DATA_FILES = ("tracker.db", "tracker.db-wal", "tracker.db-shm", "blob.dat", "vectors.f32", "vectors.tags",
              "vectors.sums", "vectors.keys")


def read_content(store: MemoryStore, key_hash: int) -> bytes:
    """The blob bytes of a file, symbol, chunk or memory, via its tracker row (seed 000 §1.3)."""
    store._check_open()
    with store.telemetry.measure("read", None) as ev:
        conn = store.tracker.conn()
        found = store.tracker.code.locate(conn, key_hash)
        if found is not None:
            ev.entity_type, row = found
            ev.memory_id = store.tracker.keys.get_key(conn, key_hash)
            off, length = row["blob_offset"], row["blob_length"]
        else:
            entry = store.tracker.memories.get(conn, key_hash)
            if entry is None or entry.blob_offset is None:
                raise NotFound(f"no stored content for key hash {key_hash:#018x}")
            ev.entity_type, ev.memory_id = "memory", entry.id
            off, length = entry.blob_offset, entry.blob_length
        return store.blob.read_slice(off, length)


def scan_content(store: MemoryStore, key_hash: int) -> tuple[str, bytes]:
    """(canonical key, bytes a pattern scan reads) for an indexed item or a memory.

    Files, symbols and chunks give their blob slice (seed 000 §1.3). A memory
    gives its text: its blob record is JSON, whose escaping (`\\"`) would hide
    or shift matches. `NotFound` for an unknown key hash.
    """
    store._check_open()
    if store.tracker.resolve_type(key_hash) == "memory":
        entry = store.tracker.get_memory_by_key(key_hash)
        if entry is not None:
            return entry.id, entry.text.encode("utf-8")
    data = store.read_content(key_hash)
    return store.tracker.keys.get_key(store.tracker.conn(), key_hash), data


def stats(store: MemoryStore) -> dict[str, Any]:
    """Row counts, vector counts, schema version and the size of each file on disk."""
    store._check_open()
    files = {name: (store.data_dir / name).stat().st_size for name in DATA_FILES if (store.data_dir / name).exists()}
    return {
        "counts": store.tracker.counts(),
        "vectors": store.vectors.stats(),
        "schema_version": store.tracker.schema_version(),
        "embedder": {"name": store.embedder.name, "dim": store.embedder.dim},
        "bytes": files,
        "bytes_total": sum(files.values()),
    }
