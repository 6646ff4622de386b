"""The secret redactor of the project layer: `pat:secrets` from reference/patterns, built on first use.

Compiling the Hyperscan database takes a noticeable fraction of a second, so
a store that never records a commit never pays for it. The compiled database
is cached under `<data_dir>/patterns/` like every pattern set of the store.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from reference.memory_input import redact_value

SECRETS_FILE = "secrets.json"


class LazySecretsRedactor:
    """Callable `text -> redacted text` over the built-in `pat:secrets` set, compiled on first call."""

    def __init__(self, data_dir: str | Path | None, clock: Any = None) -> None:
        self.data_dir, self.clock = data_dir, clock
        self._redactor: Any = None
        self._lock = threading.Lock()

    def _get(self) -> Any:
        with self._lock:
            if self._redactor is None:
                from reference.patterns import PatternSetManager, Redactor
                from reference.patterns.pattern_set_manager import BUILTIN_DIR

                manager = PatternSetManager(self.data_dir, clock=self.clock, builtins=False)
                manager.load_file(BUILTIN_DIR / SECRETS_FILE)
                self._redactor = Redactor(manager)
            return self._redactor

    def __call__(self, text: str) -> str:
        return self._get().redact(text).text



def redact_metadata(meta: dict[str, Any], redactor: Callable[[str], str]) -> dict[str, Any]:
    """`meta` with every string in it redacted; one scan when nothing in it is a secret.

    The strings are joined with newlines and scanned once; only if that scan
    changes something is every string redacted on its own (so a match spanning
    two strings cannot leak a marker into the wrong one).
    """
    strings = list(_strings(meta))
    if not strings:
        return meta
    joined = "\n".join(strings)
    if redactor(joined) == joined:
        return meta
    return redact_value(meta, redactor)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
