"""`Tuning`: the values of the reference's fitted constants for one open store.

The knowledge layer and Memory Lane use constants fitted on the calibration
split (`bench/calibration/knowledge.py`): Memory Lane's similarity floors
(`lane/scoring.py`), `UPDATE_THRESHOLD` and `RELATE_THRESHOLD`
(`knowledge/relations.py`) and `DECAY_WEIGHT` (`knowledge/hybrid.py`). A caller that wants other values for
one store (the seeds' own, to report them beside the fitted ones) puts a
`Tuning` on it before its knowledge layer or lane exists:

    store = MemoryStore.open(path, clock=clock)
    use_tuning(store, SEED_DEFAULTS)
    KnowledgeLayer.for_store(store)     # updates above 0.8, relates at 0.5, decays with weight 1.0
    MemoryLane.for_store(store)         # floors 0.50 / 0.40; ranker mode by cosine alone

A field left `None` keeps the module's committed value. Nothing is global: other
stores in the same process keep theirs.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

EXTENSION = "tuning"
_BUILT_ON_IT = ("knowledge", "lane")   # store.extensions keys of the layers that read a Tuning when created


@dataclass(frozen=True)
class Tuning:
    """Values for the fitted constants; `None` = the committed value."""

    lane_floors: tuple[float, float] | None = None   # (semantic, entity), whatever the embedder
    update_threshold: float | None = None
    relate_threshold: float | None = None
    decay_weight: float | None = None
    # "seed": Memory Lane's ranker mode ranks by cosine alone, as seed 004 §4.3 says (lane/search.py);
    # None: the fitted ranker mode (lane/hybrid.py, `LANE`)
    lane_ranker: str | None = None

    def __post_init__(self) -> None:
        if self.lane_ranker not in (None, "seed"):
            raise ValueError(f"lane_ranker must be None or 'seed', got {self.lane_ranker!r}"[:120])
        values = [*(self.lane_floors or ()), self.update_threshold, self.relate_threshold, self.decay_weight]
        if self.lane_floors is not None and len(self.lane_floors) != 2:
            raise ValueError(f"lane_floors must be (semantic, entity), got {self.lane_floors!r}"[:120])
        for v in values:
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.0 <= v <= 1.0):
                raise ValueError(f"a tuned constant must be a number in [0, 1], got {v!r}"[:120])

    def as_dict(self) -> dict[str, Any]:
        return {"lane_floors": list(self.lane_floors) if self.lane_floors else None,
                "update_threshold": self.update_threshold, "relate_threshold": self.relate_threshold,
                "decay_weight": self.decay_weight,
                "lane_ranker": self.lane_ranker}


# The seeds' values: floors 0.50 / 0.40 (seed 004, for a sentence-embedding model), update or extend when
# similarity > 0.8 and relate when > 0.5 (seed 001), relevance multiplies the score (seed 001: score x relevance,
# weight 1.0). MARKER_MIN_SIMILARITY has no seed value and keeps its committed one.
SEED_DEFAULTS = Tuning(lane_floors=(0.50, 0.40), update_threshold=0.8, relate_threshold=0.5, decay_weight=1.0,
                       lane_ranker="seed")


def use_tuning(store: Any, tuning: Tuning) -> None:
    """Give `store` these values; refused once a layer that reads them has been created on it."""
    if not isinstance(tuning, Tuning):
        raise TypeError(f"use_tuning needs a Tuning, got {type(tuning).__name__}")
    made = [k for k in _BUILT_ON_IT if k in store.extensions]
    if made:
        raise ValueError(f"use_tuning: the {' and '.join(made)} layer already exists on this store; "
                         "set the tuning right after MemoryStore.open")
    store.extensions[EXTENSION] = tuning


def tuning_of(store: Any) -> Tuning:
    """The store's `Tuning` (all `None`: the committed values, when none was given)."""
    return getattr(store, "extensions", {}).get(EXTENSION) or Tuning()
