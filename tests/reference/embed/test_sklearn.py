"""The scikit-learn hashing embedder: deterministic, normalised, and semantically sane."""
import numpy as np

from reference.clock import LogicalClock
from reference.embed import get_embedder
from reference.store import MemoryStore


def test_properties():
    e = get_embedder("sklearn-hashing-v1")
    v = e.embed(["token refresh race in authClient.refresh", "token refresh race in authClient.refresh",
                 "refreshing the auth token twice", "invoice rounding with Decimal", "!!!"])
    assert v.shape == (5, 256) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v[:4], axis=1), 1.0, atol=1e-5) and not v[4].any()
    assert np.array_equal(v[0], v[1])
    assert v[0] @ v[2] > v[0] @ v[3] + 0.1   # shared words and stems beat an unrelated text
    assert np.array_equal(v[0], get_embedder("sklearn-hashing-v1").embed(["token refresh race in authClient.refresh"])[0])


def test_store_runs_on_it_and_refuses_to_mix(tmp_path):
    with MemoryStore.open(tmp_path, clock=LogicalClock(), embedder=get_embedder("sklearn-hashing-v1")) as s:
        a = s.write_memory("serialise token refresh behind one promise")
        s.write_memory("round invoice totals once")
        assert s.search_memories("concurrent token refresh", top_k=1)[0].id == a.id
    import pytest
    from reference.errors import StoreError
    with pytest.raises(StoreError):
        MemoryStore.open(tmp_path, clock=LogicalClock())  # hashing-v1 vectors may not join them
