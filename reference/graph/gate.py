"""A read gate: lets the writer resize the LMDB map only while no read is in flight.

LMDB may remap its file when the map grows, so `set_mapsize` is only safe when
no transaction of this process is open. Reads `enter`/`leave` (cheap, an
uncontended lock); `exclusive` waits for running reads and holds new ones back.
"""
from __future__ import annotations

import threading
from collections.abc import Callable


class ReadGate:
    """Counts reads in flight; runs a resize with none of them open."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._readers = 0
        self._closed_for: int = 0

    def enter(self) -> None:
        with self._cond:
            while self._closed_for:
                self._cond.wait()
            self._readers += 1

    def leave(self) -> None:
        with self._cond:
            self._readers -= 1
            if not self._readers and self._closed_for:
                self._cond.notify_all()

    def exclusive(self, fn: Callable[[], None]) -> None:
        with self._cond:
            self._closed_for += 1
            try:
                while self._readers:
                    self._cond.wait()
                fn()
            finally:
                self._closed_for -= 1
                self._cond.notify_all()
