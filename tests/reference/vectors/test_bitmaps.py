"""The vector cache's tag bitmaps, changed in place in a buffer with room to grow, against bitmaps made afresh."""
from __future__ import annotations

import numpy as np

from reference.vectors import VectorCache

DIM = 8


def _fresh(cache: VectorCache, tags):
    mask = cache._tag_mask(None if tags is None else tuple(sorted(tags)))
    return np.packbits(mask, bitorder="little"), int(mask.sum())


def test_single_puts_overwrites_and_tombstones_keep_every_bitmap_exact(tmp_path):
    """One row at a time (the single-bit path): new keys, re-puts of live keys (a row dies and one is born
    in the same byte or another), removes; across several doublings of the buffer, whose bytes past the
    rows stay zero."""
    rng = np.random.default_rng(4)
    cache = VectorCache(tmp_path, DIM)
    cache.put_many([1, 2, 3], rng.standard_normal((3, DIM)).astype(np.float32), [1, 2, 1])
    grew = set()
    for step in range(300):
        for tags in (None, [1], [2, 3]):
            cache._bitmap(tags)
        key = int(rng.integers(1, 40))
        if step % 7 == 6:
            cache.remove_many([key])
        else:
            cache.put_many([key], rng.standard_normal((1, DIM)).astype(np.float32), [int(rng.integers(0, 4))])
        for tags in (None, [1], [2, 3]):
            kept, fresh = cache._bitmap(tags), _fresh(cache, tags)
            assert np.array_equal(kept[0], fresh[0]) and kept[1] == fresh[1], (step, tags)
            buf = cache._bitmaps[tuple(sorted(tags)) if tags else None][2]
            assert not buf[kept[0].size:].any()
            grew.add(buf.size)
    assert len(grew) >= 4   # the buffer was doubled several times
    cache.close()
