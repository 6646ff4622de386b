"""Memory Lane (seed 004): taxonomy, entity-filtered dual search, intent boost, feedback, session recalls.

    lane = MemoryLane.for_store(store)          # one instance per open store
    entry = lane.store("Never refresh tokens on the UI thread", memory_type="correction",
                       paths=["src/features/auth/session.ts"])
    result = lane.find("what mistake did we make with auth token refresh?")
    lane.feedback(entry.id, "helpful")
    block = lane.inject("auth token refresh", session_id="s1").block

Names are loaded lazily: `reference/schema_steps.py` imports `reference.lane.schema`
while the `reference` package is still initialising, so this package must not
import the store when it is first imported.
"""
from __future__ import annotations

from reference.lazy_exports import lazy_getattr

_EXPORTS = {
    "MemoryLane": "reference.lane.lane",
    "LaneResult": "reference.lane.search",
    "LaneHit": "reference.lane.search",
    "Injection": "reference.lane.injection",
    "render_block": "reference.lane.injection",
    "MemoryType": "reference.lane.taxonomy",
    "TYPE_WEIGHTS": "reference.lane.taxonomy",
    "classify": "reference.lane.extraction",
    "EntityResolver": "reference.lane.resolver",
    "Resolution": "reference.lane.resolver",
    "Ambiguity": "reference.lane.resolver",
    "slugs_from_paths": "reference.lane.entities",
    "slugs_from_text": "reference.lane.entities",
    "detect_intents": "reference.lane.intent",
    "feedback_factor": "reference.lane.feedback",
    "Floors": "reference.lane.scoring",
    "floors_for": "reference.lane.scoring",
    "final_score": "reference.lane.scoring",
    "LaneError": "reference.lane.errors",
}

__all__ = sorted(_EXPORTS)


__getattr__ = lazy_getattr('reference.lane', _EXPORTS, globals())
