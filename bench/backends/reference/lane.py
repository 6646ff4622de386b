"""The Memory Lane capability of the reference backend: the store's `MemoryLane`."""
from __future__ import annotations

from typing import Any

from reference.lane import MemoryLane

from bench.backends.ops.lane import LaneOps
from bench.backends.reference.part import ReferencePart


class LanePart(LaneOps, ReferencePart):
    """Opens the lane with the store (its tables come with the tracker's migrations)."""

    def _on_open(self) -> None:
        super()._on_open()
        self.lane = MemoryLane.for_store(self.store)

    def _on_close(self) -> None:
        self.lane = None
        super()._on_close()

    def lane_store(self, information, memory_type=None, entities=None, paths=None, tags=None,
                   confidence_score=None) -> str:
        return self.lane.store(information, memory_type=memory_type, entities=entities, paths=paths, tags=tags,
                               confidence=confidence_score).id

    def lane_find(self, query, entities=None, limit=10) -> dict[str, Any]:
        return self.lane.find(query, entities=entities, top_k=limit).to_dict()

    def lane_feedback(self, memory_id, signal) -> dict[str, Any]:
        return self.lane.feedback(memory_id, signal, session_id=getattr(self, "session_id", None)).to_dict()

    def lane_inject(self, query, session_id, limit=3) -> dict[str, Any]:
        return self.lane.inject(query, session_id, limit).to_dict()
