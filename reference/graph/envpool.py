"""One LMDB environment per directory per process, shared by every `GraphStore` open on it.

LMDB (and py-lmdb) allow a single environment handle per file per process, so
a second `GraphStore.open` of the same directory reuses the first one's
environment, read gate and write lock. The first opener's `map_size` and
`sync` settings apply; a directory open read-only cannot also be opened for
writing in the same process until every read-only handle is closed.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from typing import Any

import lmdb

from reference.graph.errors import StoreError
from reference.graph.gate import ReadGate


@dataclass
class SharedEnv:
    """An environment and the locks every store on it must share."""

    key: str
    env: Any
    readonly: bool
    refs: int = 0
    gate: ReadGate = field(default_factory=ReadGate)
    wlock: threading.RLock = field(default_factory=threading.RLock)
    writer_thread: int | None = None


_POOL: dict[str, SharedEnv] = {}
_LOCK = threading.Lock()


def acquire(path: str, map_size: int, readonly: bool, sync: bool) -> SharedEnv:
    key = os.path.realpath(path)
    with _LOCK:
        shared = _POOL.get(key)
        if shared is None:
            env = lmdb.open(key, map_size=map_size, subdir=True, readonly=readonly, max_dbs=0, max_spare_txns=8,
                            sync=sync, metasync=sync, readahead=False, lock=True)
            shared = _POOL[key] = SharedEnv(key, env, readonly)
        elif shared.readonly and not readonly:
            raise StoreError(f"graph store at {key} is open read-only in this process; close it to open for writing")
        shared.refs += 1
        return shared


def release(shared: SharedEnv) -> None:
    with _LOCK:
        shared.refs -= 1
        if shared.refs:
            return
        _POOL.pop(shared.key, None)
    with shared.wlock:
        shared.gate.exclusive(shared.env.close)
