"""The reference store behind the backend interface.

Spec `reference` searches with the seed 000 design (structured filters, then
semantic re-rank); `reference:<ranker>` picks another of the store's rankers.
`reference:seed-defaults` (or `reference:<ranker>+seed-defaults`) runs with the
constants fitted on the calibration split set to the seeds' values instead
(`reference.tuning.SEED_DEFAULTS`: lane floors 0.50 / 0.40, relate threshold
0.5, decay weight 1.0), so a report can show the seed-default figure beside
the tuned one.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from reference.clock import Clock
from reference.rankers import DEFAULT_RANKER, RANKERS, Query, make_ranker
from reference.embed.env import env_embedder
from reference.store import MemoryStore
from reference.telemetry import TelemetrySink
from reference.tuning import SEED_DEFAULTS, use_tuning

from bench.backends.capabilities import Capability as C
from bench.backends.interface import Backend, Hit
from bench.backends.reference.graph import GraphPart
from bench.backends.reference.knowledge import KnowledgePart
from bench.backends.reference.lane import LanePart
from bench.backends.reference.project import ProjectPart
from bench.backends.reference.part import ReferencePart
from bench.backends.reference.patterns import PatternPart


SEED_OPTION = "seed-defaults"


def _dir_bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


class ReferenceBackend(GraphPart, PatternPart, KnowledgePart, LanePart, ProjectPart, ReferencePart, Backend):
    """Embedded reference store, in-process."""

    name = "reference"
    deterministic = True   # no wall clock or randomness in any answer: gated exactly
    capabilities = frozenset({
        C.MEMORY_WRITE, C.MEMORY_GET, C.MEMORY_LIST, C.MEMORY_SEARCH, C.MEMORY_FILTERS,
        C.KEYWORD_SEARCH, C.MEMORY_DELETE, C.METADATA_FILTERS, C.CODE_INDEX, C.CODE_SEARCH,
        C.PATTERNS, C.REDACTION, C.GRAPH, C.POLICY_KV, C.POINT_IN_TIME, C.SNAPSHOT,
        C.KNOWLEDGE, C.MEMORY_LANE, C.PROJECT_MEMORY, C.WORKING_PATHS,
    })
    options = (*RANKERS, SEED_OPTION)   # and `<ranker>+seed-defaults` (accepted, not listed: one contract run)

    def __init__(self, option: str | None = None) -> None:
        ranker, plus, seed = (option or "").partition("+")
        if plus and seed == SEED_OPTION and ranker in RANKERS:
            super().__init__(SEED_OPTION)
            self.option, self.ranker_name, self.seed_defaults = option, ranker, True
            return
        super().__init__(option)
        self.seed_defaults = option == SEED_OPTION
        self.ranker_name = DEFAULT_RANKER if option in (None, SEED_OPTION) else option

    def open(self, data_dir: Path, clock: Clock, telemetry: TelemetrySink) -> None:
        self.data_dir, self.clock, self.telemetry = Path(data_dir), clock, telemetry
        self.store = MemoryStore.open(self.data_dir, clock=clock, telemetry=telemetry, embedder=env_embedder())
        if self.seed_defaults:
            use_tuning(self.store, SEED_DEFAULTS)   # before the knowledge layer and the lane read it
        self.session_id: str | None = None
        self._on_open()
        self.ranker = make_ranker(self.ranker_name, self.store)

    def close(self) -> None:
        try:
            self._on_close()
        finally:
            self.store.close()

    def storage_bytes(self) -> int:
        return _dir_bytes(self.data_dir)

    def set_context(self, scope, run_id, task_id, session_id) -> None:
        self.store.set_context(scope=scope, run_id=run_id, task_id=task_id)
        self.session_id = session_id
        self._on_context(scope, run_id, task_id, session_id)

    # memory ---------------------------------------------------------------
    def write_memory(self, text, task=None, insights=None, context=None, symbol_keys=None, tags=None,
                     metadata=None) -> str:
        return self.store.write_memory(text, task=task, insights=insights, context=context,
                                       symbol_keys=symbol_keys, tags=tags, metadata=metadata).id

    def write_memories(self, records: list[dict[str, Any]], times: list[float] | None = None) -> list[str]:
        """Several writes in one batch (`MemoryStore.write_memories`, each record at its time from `times`);
        replay hands it runs of writes (bench/replay/write_batch.py)."""
        return [e.id for e in self.store.write_memories(records, times=times)]

    def get_memory(self, memory_id: str) -> dict[str, Any] | None:
        entry = self.store.get_memory(memory_id)
        return entry.to_dict() if entry else None

    def list_memories(self, task=None, context=None, limit=50, offset=0) -> list[dict[str, Any]]:
        return [e.to_dict() for e in self.store.list_memories(task=task, context=context, limit=limit, offset=offset)]

    def search_memories(self, query=None, task=None, context=None, insights=None, tags=None, top_k=10,
                        where_metadata=None, paths=None) -> list[Hit]:
        hits = self.ranker.search(Query(query, task, context, insights, tags, top_k, where_metadata,
                                        session_id=self.session_id, paths=_paths(paths)))
        return [Hit(h.id, h.score) for h in hits]

    def keyword_search(self, query: str, top_k: int = 10) -> list[Hit]:
        return [Hit(h.id, h.score) for h in self.store.keyword_search(query, top_k=top_k)]

    def delete_memory(self, memory_id: str) -> bool:
        return self.store.delete_memory(memory_id)

    # code -----------------------------------------------------------------
    def index_directory(self, root: Path) -> dict[str, Any]:
        return _as_dict(self.store.index_directory(root))

    def index_file(self, path: Path, root: Path) -> dict[str, Any]:
        return _as_dict(self.store.index_file(path, root))

    def search_all(self, query, top_k=10, types=None) -> list[Hit]:
        return [Hit(h.id, h.score) for h in self.store.search_all(query, top_k=top_k, types=types)]

    def code_search(self, query, top_k=10) -> list[Hit]:
        return [Hit(h.id, h.score) for h in self.store.code_search(query, top_k=top_k)]

    def symbol_search(self, query, top_k=10) -> list[Hit]:
        return [Hit(h.id, h.score) for h in self.store.symbol_search(query, top_k=top_k)]


def _paths(paths: Any) -> tuple[str, ...]:
    """Working paths as the rankers take them; a bad value is a ValueError naming it."""
    if paths is None:
        return ()
    if isinstance(paths, str) or not isinstance(paths, (list, tuple)) or not all(isinstance(p, str) for p in paths):
        raise ValueError(f"paths must be a list of file path strings, got {paths!r}")
    return tuple(paths)


def _as_dict(result: Any) -> dict[str, Any]:
    return result.to_dict()
