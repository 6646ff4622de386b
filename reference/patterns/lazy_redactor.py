"""The built-in secrets redactor as a plain `text -> text` callable, compiled on first use.

Layers that store text outside `MemoryStore` (the graph, the project tables) take a
`redactor` callable; when given none they use `LazySecretsRedactor`, so a store that
never writes pays nothing for compiling `pat:secrets` (about a quarter second).
`redact_json` applies any such callable to every string of a JSON value.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

SECRETS_FILE = "secrets.json"


class LazySecretsRedactor:
    """Callable `text -> redacted text` over the built-in `pat:secrets` set, compiled on first call.

    `data_dir` holds the compiled-database cache (`<data_dir>/patterns/`); None keeps it
    in memory only.
    """

    def __init__(self, data_dir: str | Path | None = None, clock: Any = None) -> None:
        self.data_dir, self.clock = data_dir, clock
        self._redactor: Any = None
        self._lock = threading.Lock()

    def _get(self) -> Any:
        with self._lock:
            if self._redactor is None:
                from reference.patterns.pattern_set_manager import BUILTIN_DIR, PatternSetManager
                from reference.patterns.redactor import Redactor

                manager = PatternSetManager(self.data_dir, clock=self.clock, builtins=False)
                manager.load_file(BUILTIN_DIR / SECRETS_FILE)
                self._redactor = Redactor(manager)
            return self._redactor

    def __call__(self, text: str) -> str:
        return self._get().redact(text).text


_SHARED = LazySecretsRedactor()


def shared_secrets_redactor() -> LazySecretsRedactor:
    """One in-memory built-in secrets redactor per process (for stores opened without one)."""
    return _SHARED


def redact_json(value: Any, redactor: Callable[[str], str]) -> Any:
    """`value` with every string in it (dict keys included) redacted; one scan when none is a secret.

    The strings are joined with newlines and scanned once; only if that changes
    something is each string redacted on its own (so a match spanning two strings
    cannot put a marker into the wrong one). Values other than str/list/dict pass as is.
    """
    strings = list(_strings(value))
    if not strings:
        return value
    joined = "\n".join(strings)
    if redactor(joined) == joined:
        return value
    return _each(value, redactor)


def _each(value: Any, redactor: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return redactor(value)
    if isinstance(value, list):
        return [_each(v, redactor) for v in value]
    if isinstance(value, tuple):
        return tuple(_each(v, redactor) for v in value)
    if isinstance(value, dict):
        return {(redactor(k) if isinstance(k, str) else k): _each(v, redactor) for k, v in value.items()}
    return value


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            if isinstance(k, str):
                yield k
            yield from _strings(v)
