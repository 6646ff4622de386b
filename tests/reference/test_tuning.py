"""reference.tuning: the fitted constants replaced for one store only, read by the knowledge layer and the lane."""
import math

import pytest

from reference.clock import LogicalClock
from reference.knowledge import KnowledgeLayer
from reference.knowledge import hybrid, relations
from reference.lane import MemoryLane
from reference.lane.scoring import Floors, floors_for
from reference.store import MemoryStore
from reference.tuning import SEED_DEFAULTS, Tuning, tuning_of, use_tuning

DAY = 86_400.0


@pytest.fixture
def stores(tmp_path):
    clock = LogicalClock(1_767_225_600)
    a = MemoryStore.open(tmp_path / "a", clock=clock)
    b = MemoryStore.open(tmp_path / "b", clock=clock)
    yield clock, a, b
    a.close()
    b.close()


def test_seed_values_reach_the_layers_of_one_store_only(stores):
    _, seeded, plain = stores
    use_tuning(seeded, SEED_DEFAULTS)
    k, lane = KnowledgeLayer.for_store(seeded), MemoryLane.for_store(seeded)
    assert lane.floors == Floors(0.50, 0.40) and k.builder.relate_threshold == 0.5 and k.decay_weight == 1.0
    assert k.builder.update_threshold == 0.8
    k2, lane2 = KnowledgeLayer.for_store(plain), MemoryLane.for_store(plain)
    assert tuning_of(plain) == Tuning()
    assert lane2.floors == floors_for(plain.embedder.name) and lane2.floors != Floors(0.50, 0.40)
    assert k2.builder.relate_threshold == relations.RELATE_THRESHOLD and k2.decay_weight is None
    assert k2.builder.update_threshold == relations.UPDATE_THRESHOLD != 0.8


def test_decay_weight_of_the_tuning_scores_the_search(stores, monkeypatch):
    # the weight decays the seed's search (hybrid.py), the one oracle_search runs when ORACLE_SEARCH is "seed"
    from reference.knowledge import layer as knowledge_layer
    monkeypatch.setattr(knowledge_layer, "ORACLE_SEARCH", "seed")
    clock, seeded, plain = stores
    use_tuning(seeded, Tuning(decay_weight=1.0))
    scores = {}
    for s in (seeded, plain):
        KnowledgeLayer.for_store(s)
        s.write_memory("Token refresh races when two tabs refresh at once.")
        s.write_memory("Cache pip wheels in the CI pipeline.")
    clock.advance(30 * DAY)
    for name, s in (("seed", seeded), ("committed", plain)):
        (hit,) = [h for h in KnowledgeLayer.for_store(s).search("token refresh", include_related=False,
                                                                record_access=False) if "Token" in s.get_memory(h.id).text]
        scores[name] = hit.score   # same texts in both stores: the same merge before decay
    relevance = math.exp(-1)
    undecayed = scores["committed"] / ((1 - hybrid.DECAY_WEIGHT) + hybrid.DECAY_WEIGHT * relevance)
    assert scores["seed"] == pytest.approx(undecayed * relevance, rel=1e-5)
    assert scores["seed"] < scores["committed"]


def test_tuning_is_refused_after_a_layer_exists_and_bad_values_are_refused(stores):
    _, store, _ = stores
    MemoryLane.for_store(store)
    with pytest.raises(ValueError, match="lane layer already exists"):
        use_tuning(store, SEED_DEFAULTS)
    with pytest.raises(ValueError, match=r"in \[0, 1\]"):
        Tuning(decay_weight=3.0)
    with pytest.raises(ValueError, match="semantic, entity"):
        Tuning(lane_floors=(0.5,))
    with pytest.raises(TypeError):
        use_tuning(store, {"decay_weight": 1.0})
