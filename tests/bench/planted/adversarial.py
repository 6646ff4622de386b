"""Adversarial backends: answers that ignore the query, to check the score pays nothing for them.

Each is the reference store (so every write, read and check is honest) with its searches replaced:

- `EmptyReads` (backends.py) answers every search at once with nothing;
- `FixedIds` answers every memory search with the first ten memories written, at once;
- `FixedIdsSlow` the same after 300 ms;
- `LastTen` answers every memory search with the last ten memories written.

Searches other than memory search (oracle, Memory Lane, project) answer nothing, as `EmptyReads` does.
"""
from __future__ import annotations

import time

from bench.backends.interface import Hit
from tests.bench.planted.backends import SEARCHES, EmptyReads

_MEMORY_SEARCHES = ("search_memories", "keyword_search", "search_all")


class _IgnoresQuery(EmptyReads):
    """Memory searches answer `self.answer()`; the writes are the reference's, remembered in order."""

    delay_s = 0.0

    def open(self, *args, **kwargs):
        self._written: list[str] = []
        super().open(*args, **kwargs)

    def write_memory(self, *args, **kwargs):
        mid = super().write_memory(*args, **kwargs)
        self._written.append(mid)
        return mid

    def write_memories(self, records, times=None):
        ids = super().write_memories(records, times=times)
        self._written.extend(ids)
        return ids

    def get_memory(self, memory_id):             # reads stay honest: only the searches ignore the query
        return super(EmptyReads, self).get_memory(memory_id)

    def list_memories(self, *args, **kwargs):
        return super(EmptyReads, self).list_memories(*args, **kwargs)

    def answer(self) -> list[str]:
        raise NotImplementedError


def _answers(self, *args, **kwargs):
    time.sleep(self.delay_s)
    return [Hit(mid, 1.0 - i / 100) for i, mid in enumerate(self.answer())]


for _m in _MEMORY_SEARCHES:
    setattr(_IgnoresQuery, _m, _answers)
for _m in ("graph_get_node", "graph_get_out", "graph_get_in"):   # honest graph reads
    setattr(_IgnoresQuery, _m, getattr(EmptyReads.__mro__[1], _m))


class FixedIds(_IgnoresQuery):
    name = "adversarial-fixed-ids"

    def answer(self):
        return self._written[:10]


class FixedIdsSlow(FixedIds):
    name = "adversarial-fixed-ids-300ms"
    delay_s = 0.3


class LastTen(_IgnoresQuery):
    name = "adversarial-last-ten"

    def answer(self):
        return self._written[-10:]


ADVERSARIAL = (FixedIds, FixedIdsSlow, LastTen)
assert set(_MEMORY_SEARCHES) <= set(SEARCHES)
