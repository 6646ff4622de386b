"""`NoteWatcher`: seed 001 §1 File Watcher on watchdog, debounced per file.

    with NoteWatcher(NoteIndexer(layer, "notes/"), debounce_s=1.0) as w:
        ...  # edits to notes/**/*.md|txt become searchable memories

Every create/modify/close/move/delete event of a note (re)arms that file's
deadline `debounce_s` after the event (the seed waits 1 s after the last
change); one worker thread indexes files whose deadline passed, in path
order, through `NoteIndexer.index_file` (which removes the memory of a file
that is gone). Debounce deadlines use `time.monotonic` (they are not stored);
the memories carry the store's injected clock as always. An error indexing
one file is passed to `on_error(path, exc)` (default: logged) and the
watcher keeps going. `on_indexed(path, memory_id)` is called after each file.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from reference.knowledge.notes import NoteIndexer

log = logging.getLogger(__name__)
DEBOUNCE_S = 1.0


class _Handler(FileSystemEventHandler):
    def __init__(self, watcher: "NoteWatcher") -> None:
        self.watcher = watcher

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.is_directory or event.event_type == "opened":
            return
        for raw in (event.src_path, getattr(event, "dest_path", "")):
            if raw:
                path = raw.decode() if isinstance(raw, bytes) else raw
                if self.watcher.indexer.wants(path):
                    self.watcher.touch(path)


class NoteWatcher:
    """Watches the indexer's root; start() / stop(), or use as a context manager."""

    def __init__(self, indexer: NoteIndexer, debounce_s: float = DEBOUNCE_S,
                 on_indexed: Callable[[str, str | None], None] | None = None,
                 on_error: Callable[[str, BaseException], None] | None = None) -> None:
        if debounce_s < 0:
            raise ValueError(f"debounce_s must be >= 0, got {debounce_s}")
        self.indexer, self.debounce_s = indexer, debounce_s
        self.on_indexed, self.on_error = on_indexed, on_error
        self._pending: dict[str, float] = {}
        self._cond = threading.Condition()
        self._stopping = False
        self._observer: Observer | None = None
        self._worker: threading.Thread | None = None

    def touch(self, path: str) -> None:
        """(Re)arm a file's deadline; the watchdog handler calls this, tests may too."""
        with self._cond:
            self._pending[str(Path(path))] = time.monotonic() + self.debounce_s
            self._cond.notify()

    def start(self, scan: bool = True) -> "NoteWatcher":
        """Index what is already there (`scan`), then watch."""
        if self._observer is not None:
            raise RuntimeError("the watcher is already running")
        if scan:
            self.indexer.scan()
        self._stopping = False
        self._worker = threading.Thread(target=self._run, name="note-watcher", daemon=True)
        self._worker.start()
        self._observer = Observer()
        self._observer.schedule(_Handler(self), str(self.indexer.root), recursive=True)
        self._observer.start()
        return self

    def stop(self, flush: bool = True) -> None:
        """Stop watching; with `flush`, index the files still waiting for their deadline first."""
        if self._observer is not None:
            self._observer.stop()
            self._observer.join()
            self._observer = None
        with self._cond:
            if flush:
                for p in self._pending:
                    self._pending[p] = 0.0
            self._stopping = True
            self._cond.notify()
        if self._worker is not None:
            self._worker.join()
            self._worker = None

    def __enter__(self) -> "NoteWatcher":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _due(self) -> list[str] | None:
        """Paths whose deadline passed (waiting until one does); None when stopping with nothing due."""
        with self._cond:
            while True:
                now = time.monotonic()
                due = sorted(p for p, t in self._pending.items() if t <= now)
                if due:
                    for p in due:
                        del self._pending[p]
                    return due
                if self._stopping:
                    return None
                wait = min(self._pending.values(), default=now + 3600) - now
                self._cond.wait(timeout=max(wait, 0.001))

    def _run(self) -> None:
        while (due := self._due()) is not None:
            for path in due:
                try:
                    mid = self.indexer.index_file(path)
                except Exception as exc:  # one bad file must not stop the watcher
                    if self.on_error is not None:
                        self.on_error(path, exc)
                    else:
                        log.warning("note watcher: cannot index %s: %s", path, exc)
                    continue
                if self.on_indexed is not None:
                    self.on_indexed(path, mid)
