"""VectorCache.topk / scan against a brute-force ranking, through re-puts, removes, tags and filters.

topk takes different paths (every row scored with the others ruled out, or the
qualifying rows gathered) depending on how many rows qualify; all must agree.
"""
from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference.vectors import VectorCache

DIM = 8

steps = st.lists(st.one_of(
    st.tuples(st.just("put"), st.integers(1, 40), st.integers(0, 3)),
    st.tuples(st.just("remove"), st.integers(1, 40), st.just(0)),
), min_size=1, max_size=60)


def _brute(cache: VectorCache, q: np.ndarray, tags, allowed) -> list[tuple[int, float]]:
    keys = cache.keys()
    if allowed is not None:
        keys = keys[np.isin(keys, allowed)]
    if tags is not None:
        keys = np.asarray([k for k in keys if cache.tag(int(k)) in tags], dtype=np.uint64)
    qn = q / np.linalg.norm(q)
    scored = [(int(k), float(np.einsum("ij,j->i", cache.get(int(k))[None, :], qn)[0])) for k in keys]
    return sorted(scored, key=lambda x: (-x[1], x[0]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps, st.integers(0, 2 ** 32 - 1))
def test_topk_and_scan_match_brute_force(tmp_path_factory, ops, seed):
    rng = np.random.default_rng(seed)
    cache = VectorCache(tmp_path_factory.mktemp("v"), DIM)
    for op, key, tag in ops:
        if op == "put":
            # coarse values make exact ties likely
            cache.put(key, rng.integers(-2, 3, DIM).astype(np.float32) + (np.arange(DIM) == 0), tag)
        else:
            cache.remove(key)
    q = rng.standard_normal(DIM).astype(np.float32)
    for tags in (None, [1], [0, 2, 3]):
        for allowed in (None, np.asarray(sorted(rng.choice(np.arange(1, 41), 12, replace=False)), dtype=np.uint64),
                        np.asarray([40, 3, 3, 17], dtype=np.uint64)):
            want = _brute(cache, q, tags, allowed)
            for k in (1, 3, 50):
                got = cache.topk(q, k, allowed, tags=tags, with_ties=True)
                keys, cos = cache.topk_arrays(q, k, allowed, tags=tags, with_ties=True)
                assert keys.dtype == np.uint64 and cos.dtype == np.float32
                assert list(zip(keys.tolist(), cos.tolist())) == got
                if want:
                    kth = want[min(k, len(want)) - 1][1]
                    assert got == [w for w in want if w[1] >= kth], (tags, allowed, k)
                else:
                    assert got == []
                assert cache.topk(q, k, allowed, tags=tags) == want[:k]
            keys, scores = cache.scan(q, allowed, tags=tags)
            assert sorted(zip(keys.tolist(), scores.tolist()), key=lambda x: (-x[1], x[0])) == want
    cache.close()
