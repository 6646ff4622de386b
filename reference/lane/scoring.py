"""The re-ranking formula and the adaptive similarity floors (seed 004 Phase 3).

    final = score * type_weight * intent_boost * feedback_factor

`score` is the cosine of the query and the memory. A candidate whose cosine is
below the floor, or not positive, is dropped before re-ranking: the floor is
`semantic` for a pure semantic search and the lower `entity` one when the
entity filter already vouches for the candidates.

The seed's floors (0.50 / 0.40) are for a sentence-embedding model. The
default hashing embedder scores on another scale, so `hashing-v1` gets floors
fitted on the calibration split only (commits at index % 10 == 0, scenario
`knowledge-history-calibration`, never scored): `python3 -m bench.calibration`
picks the semantic floor that best separates judged-relevant from other top-10
memories, and the entity floor at the seed's 4:5 ratio. Any other embedder
gets the seed's figures.
"""
from __future__ import annotations

from dataclasses import dataclass

from reference.lane.errors import LaneError


@dataclass(frozen=True)
class Floors:
    """Minimum cosine for a candidate: `semantic` without entities, `entity` inside an entity filter."""

    semantic: float
    entity: float

    def __post_init__(self) -> None:
        for name in ("semantic", "entity"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not 0.0 <= value < 1.0:
                raise LaneError(f"floor {name} must be a number in [0, 1), got {value!r}")


SEED_FLOORS = Floors(semantic=0.50, entity=0.40)
# fitted by bench/calibration/knowledge.py
CALIBRATED_FLOORS: dict[str, Floors] = {"hashing-v1": Floors(semantic=0.25, entity=0.20)}


def floors_for(embedder_name: str) -> Floors:
    """The calibrated floors of an embedder, or the seed's when it has none."""
    return CALIBRATED_FLOORS.get(embedder_name, SEED_FLOORS)


def final_score(score: float, type_weight: float, intent_boost: float, feedback: float) -> float:
    """Seed 004: `score * typeWeight * intentBoost * feedbackFactor`."""
    return score * type_weight * intent_boost * feedback
