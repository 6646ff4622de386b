"""The backend interface: lifecycle, declared capabilities and the memory operations.

A backend is a class with a `name`, a frozenset of `capabilities` and the
methods of the capabilities it declares. Operations take and return plain
values (str ids, dicts, `Hit`s) so that any store can sit behind them. Other
capability groups (graph, patterns, ...) add their methods in modules of
their own under `bench.backends.ops`.

Memory records are dicts with at least: id, text, task, insights, context,
tags, metadata, created_at.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from reference.clock import Clock
from reference.errors import StoreError
from reference.telemetry import TelemetrySink

from bench.backends.capabilities import Capability


class Unsupported(Exception):
    """Raised by the harness when a step needs a capability the backend does not declare."""

    def __init__(self, capability: Capability, backend: str) -> None:
        super().__init__(f"backend {backend!r} does not declare capability {capability.value!r}")
        self.capability = capability


@dataclass(frozen=True)
class Hit:
    """One ranked result: the backend's id for the item and its score (higher is better)."""

    id: str
    score: float


class Backend:
    """Base class of every backend; subclasses declare `name` and `capabilities`.

    Lifecycle: `open(data_dir, clock, telemetry)` once, operations, `close()`.
    `option` is the part after the colon in a spec such as `reference:memory-lane`.
    """

    name: ClassVar[str] = ""
    capabilities: ClassVar[frozenset[Capability]] = frozenset()
    options: ClassVar[tuple[str, ...]] = ()   # accepted values of `option`, empty = none
    # exceptions meaning "this backend refuses this input"; any other exception a call raises
    # is reported as a backend or harness bug (bench/replay/README.md)
    input_errors: ClassVar[tuple[type[Exception], ...]] = (StoreError, ValueError)
    # True when the same scenario always gives the same answers (no wall clock, randomness or threads
    # in ranking): `gate` then fails any drop of a quality figure, however small (bench/gate/README.md)
    deterministic: ClassVar[bool] = False

    def __init__(self, option: str | None = None) -> None:
        if option is not None and option not in self.options:
            allowed = ", ".join(self.options) or "none"
            raise ValueError(f"backend {self.name!r} has no option {option!r} (options: {allowed})")
        self.option = option

    @property
    def label(self) -> str:
        """The spec this backend was created from, e.g. `reference:memory-lane`."""
        return f"{self.name}:{self.option}" if self.option else self.name

    def supports(self, capability: Capability) -> bool:
        return capability in self.capabilities

    # lifecycle -----------------------------------------------------------
    def open(self, data_dir: Path, clock: Clock, telemetry: TelemetrySink) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def storage_bytes(self) -> int:
        """Bytes the backend keeps on disk under its data directory."""
        raise NotImplementedError

    def set_context(self, scope: str | None, run_id: str | None, task_id: str | None,
                    session_id: str | None) -> None:
        """The session the next operations belong to (for telemetry and session-aware backends)."""

    # memory.write / get / list / search ----------------------------------
    def write_memory(self, text: str, task: str | None = None, insights: list[str] | None = None,
                     context: list[str] | None = None, symbol_keys: list[int] | None = None,
                     tags: list[str] | None = None, metadata: dict[str, Any] | None = None) -> str:
        """Store a memory; return its id."""
        raise NotImplementedError

    def get_memory(self, memory_id: str) -> dict[str, Any] | None:
        raise NotImplementedError

    def list_memories(self, task: str | None = None, context: list[str] | None = None,
                      limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
        raise NotImplementedError

    def search_memories(self, query: str | None = None, task: str | None = None,
                        context: list[str] | None = None, insights: list[str] | None = None,
                        tags: list[str] | None = None, top_k: int = 10,
                        where_metadata: dict[str, list[Any]] | None = None, paths: list[str] | None = None) -> list[Hit]:
        """Ranked memories for a query inside the filters.

        `paths` (the files the agent is working on) is passed only to a backend that declares
        `memory.working_paths`, so a backend without the capability may leave it out of its signature. Context is never a filter: a backend may use it to rank
        (the reference reads it as seed 004's path-based entities) and the truth does not depend on it.
        """
        raise NotImplementedError

    def keyword_search(self, query: str, top_k: int = 10) -> list[Hit]:
        raise NotImplementedError

    def delete_memory(self, memory_id: str) -> bool:
        raise NotImplementedError

    # code.index / code.search --------------------------------------------
    def index_directory(self, root: Path) -> dict[str, Any]:
        raise NotImplementedError

    def index_file(self, path: Path, root: Path) -> dict[str, Any]:
        raise NotImplementedError

    def search_all(self, query: str, top_k: int = 10, types: list[str] | None = None) -> list[Hit]:
        raise NotImplementedError

    def code_search(self, query: str, top_k: int = 10) -> list[Hit]:
        raise NotImplementedError

    def symbol_search(self, query: str, top_k: int = 10) -> list[Hit]:
        raise NotImplementedError
