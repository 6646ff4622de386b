"""`MemoryLane`: the seed 004 layer over one open `MemoryStore` (one instance per store).

    lane = MemoryLane.for_store(store)
    lane.store(text, memory_type=None, entities=None, paths=None, ...)  -> MemoryEntry
    lane.find(query, entities=None, top_k=10, session_id=None)          -> LaneResult
    lane.search(query, filters=..., session_id=..., top_k=...)          -> LaneResult (ranker use)
    lane.feedback(memory_id, "helpful" | "harmful")                     -> FeedbackState
    lane.inject(query, session_id, limit=3)                             -> Injection

Memories are ordinary store memories; the lane packs its fields into their
metadata (metadata.py), keeps feedback and session recalls in its own tables
(schema.py) and drops both when a memory is deleted. Memories written without
lane fields take part as `learning` memories without entities.
"""
from __future__ import annotations

from typing import Any

from reference.lane import metadata as lane_meta
from reference.lane.entities import check_slug, paths_in_text, slugs_from_paths, slugs_from_text
from reference.lane.errors import LaneError
from reference.lane.extraction import classify
from reference.lane.feedback import FeedbackState, FeedbackTable, check_signal
from reference.lane.injection import Injection, render_block
from reference.lane.recalls import RecallTable, check_session
from reference.lane.resolver import EntityResolver, Resolution
from reference.lane.scoring import Floors, floors_for
from reference.tuning import tuning_of
from reference.lane.paths import check_paths
from reference.lane.hybrid import LaneHybrid
from reference.lane.search import LaneResult, LaneSearch
from reference.lane.taxonomy import parse_type
from reference.memories.record import MemoryEntry
from reference.errors import NotFound
from reference.tracker import memory_revision

EXTENSION = "lane"
DEFAULT_INJECT = 3

_KNOWN_SQL = ("SELECT DISTINCT j.value FROM memories m, json_each(m.metadata, '$.entity_slugs') j "
              "WHERE instr(m.metadata, '\"entity_slugs\"') > 0 AND j.type = 'text' ORDER BY j.value")


class MemoryLane:
    """Taxonomy, entity-aware search, feedback and session-aware injection over a store."""

    def __init__(self, store: Any, floors: Floors | None = None) -> None:
        self.memstore = store
        tuned = tuning_of(store).lane_floors   # reference/tuning.py: floors given for this store
        self.floors = floors or (Floors(*tuned) if tuned else floors_for(store.embedder.name))
        # Every caller text the lane keeps in its own tables (a recall's query, session ids) goes
        # through the store's redactor, as memory text does: no secret reaches tracker.db or its WAL.
        redact = store.redactor or (lambda text: text)
        self.feedback_table = FeedbackTable(redact)
        self.recalls = RecallTable(redact)
        self.engine = LaneSearch(store, self.floors, self.feedback_table)
        self.hybrid = LaneHybrid(store, self.engine)   # ranker mode: keyword + semantic first stage
        self.seed_ranker = tuning_of(store).lane_ranker == "seed"   # seed-defaults: ranker mode by cosine alone
        self._known: tuple[tuple, list[str], EntityResolver] | None = None
        store.add_delete_listener(self._forget)

    @classmethod
    def for_store(cls, store: Any) -> "MemoryLane":
        """The store's lane, created on first use and kept in `store.extensions["lane"]`."""
        lane = store.extensions.get(EXTENSION)
        if lane is None:
            lane = store.extensions[EXTENSION] = cls(store)
        return lane

    # -- writing -------------------------------------------------------------------
    def store(self, text: str, memory_type: str | None = None, entities: list[str] | None = None,
              paths: list[str] | None = None, tags: list[str] | None = None, task: str | None = None,
              context: list[str] | None = None, insights: list[str] | None = None,
              confidence: int | None = None, metadata: dict[str, Any] | None = None) -> MemoryEntry:
        """Write a memory with its lane type (given, or classified from the text) and entity slugs.

        Slugs: the `entities` given (`type:name`), explicit slugs in the text,
        and the slugs of `paths` and of paths in the text (entities.py rules).
        """
        if not isinstance(text, str) or not text.strip():
            raise LaneError("text must be a non-empty string")
        mtype = parse_type(memory_type) if memory_type is not None else classify(text)
        if entities is not None and (isinstance(entities, str) or not isinstance(entities, (list, tuple))):
            raise LaneError(f"entities must be a list of 'type:name' slugs, got {entities!r}")
        if paths is not None and (isinstance(paths, str) or not isinstance(paths, (list, tuple))):
            raise LaneError(f"paths must be a list of file paths, got {paths!r}")
        slugs = [check_slug(e) for e in entities or []]
        slugs += slugs_from_text(text) + slugs_from_paths(list(paths or []) + paths_in_text(text))
        packed = lane_meta.pack(mtype, slugs, confidence)
        return self.memstore.write_memory(text, task=task, insights=insights, context=context, tags=tags,
                                          metadata={**(metadata or {}), **packed})

    def feedback(self, memory_id: str, signal: str, session_id: str | None = None) -> FeedbackState:
        """Record a helpful/harmful signal; returns the memory's new counts and factor."""
        check_signal(signal)
        if self.memstore.get_memory(memory_id) is None:
            raise NotFound(f"no memory {memory_id!r} to give feedback on")
        store = self.memstore
        with store.telemetry.measure("overwrite", "memory", memory_id, mode="lane_feedback", signal=signal):
            with store.tracker.tx() as conn:
                self.feedback_table.add(conn, memory_id, signal, session_id, store.clock.now())
                state = self.feedback_table.state(conn, memory_id)
                store.memories.update_metadata(memory_id, {"feedback_score": state.factor,
                                                           "feedback_count": state.helpful + state.harmful})
        return state

    # -- reading -------------------------------------------------------------------
    def feedback_state(self, memory_id: str) -> FeedbackState:
        return self.feedback_table.state(self.memstore.tracker.conn(), memory_id)

    def known_entities(self) -> list[str]:
        """Every entity slug some memory carries, sorted.

        Cached until the memories revision moves (`tracker/memory_revision.py`:
        every write, delete or metadata update made through a store, by any
        thread or process, moves it).
        """
        conn = self.memstore.tracker.conn()
        stamp = memory_revision.current(conn)   # one meta row (a count of the memories cost ~0.15 ms at 100k)
        if self._known is None or self._known[0] != stamp:
            known = [r[0] for r in conn.execute(_KNOWN_SQL)]
            self._known = (stamp, known, EntityResolver(known))
        return list(self._known[1])

    def resolver(self) -> EntityResolver:
        """A resolver over the current known entities (rebuilt only when they may have changed)."""
        self.known_entities()
        return self._known[2]

    def resolve(self, query: str, entities: list[str] | None = None) -> Resolution:
        """The entities of a query: the caller's slugs if given, else the resolver's reading."""
        if entities:
            return Resolution(tuple(sorted({check_slug(e) for e in entities})))
        return self.resolver().resolve(query)

    def find(self, query: str, entities: list[str] | None = None, top_k: int = 10,
             session_id: str | None = None) -> LaneResult:
        """The `memory-lane_find` tool: stops with a clarification when an entity is ambiguous;
        with `session_id`, memories already injected in that session are left out."""
        return self._search(query, entities, top_k, session_id, clarify=True, filters=None, mode="lane_find")

    def search(self, query: str, filters: dict[str, Any] | None = None, top_k: int = 10,
               session_id: str | None = None, paths: list[str] | None = None) -> LaneResult:
        """Ranker use (hybrid.py): structured filters honoured; an ambiguous mention searches all its
        readings; `paths` (the agent's working files) are path-based entities whose memories come first."""
        return self._search(query, None, top_k, session_id, clarify=False, filters=filters, mode="lane",
                            paths=check_paths(paths))

    def inject(self, query: str, session_id: str, limit: int = DEFAULT_INJECT) -> Injection:
        """The injection hook: the best memories not yet injected in this session, recorded and rendered."""
        check_session(session_id)
        result = self._search(query, None, limit, session_id, clarify=True, filters=None, mode="lane_inject")
        ids = tuple(result.ids)
        if ids:
            with self.memstore.tracker.tx() as conn:
                self.recalls.add(conn, session_id, ids, self.memstore.clock.now(), query)
        return Injection(session_id, query, ids, render_block(result.hits, result.ambiguous), result.ambiguous)

    def recalled(self, session_id: str) -> list[str]:
        """The memories injected in a session, in injection order."""
        return [m for m, _ in self.recalls.history(self.memstore.tracker.conn(), session_id)]

    # -- internals -----------------------------------------------------------------
    def _search(self, query: str, entities: list[str] | None, top_k: int, session_id: str | None, *,
                clarify: bool, filters: dict[str, Any] | None, mode: str, paths: tuple[str, ...] = ()) -> LaneResult:
        if not isinstance(query, str) or not query.strip():
            raise LaneError("query must be a non-empty string")
        if isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 0:
            raise LaneError(f"top_k must be a non-negative integer, got {top_k!r}")
        store = self.memstore
        with store.telemetry.measure("query", "memory", mode=mode) as ev:
            exclude = self.recalls.recalled(store.tracker.conn(), session_id) if session_id is not None else set()
            if mode == "lane" and not self.seed_ranker:
                result = self.hybrid.run(query, self.resolve(query, entities), top_k=top_k, exclude=exclude,
                                         filters=filters, paths=paths)
            else:
                result = self.engine.run(query, self.resolve(query, entities), top_k=top_k, exclude=exclude,
                                         clarify=clarify, filters=filters)
            ev.extra.update(results=len(result.hits), lane_mode=result.mode)
        return result

    def _forget(self, memory_id: str) -> None:
        with self.memstore.tracker.tx() as conn:
            self.feedback_table.forget(conn, memory_id)
            self.recalls.forget(conn, memory_id)
