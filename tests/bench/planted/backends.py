"""Planted faults: the reference backend with one thing broken, each a fault the gate must catch.

- `RaisingReads`: every read and search raises ValueError (a declared refusal, not a bug);
- `EmptyReads`: every read answers, wrongly (nothing found) -- raising must not beat it;
- `SwappedOrder`: search results with ranks 1 and 3 swapped, each hit keeping its score;
- `LosesWrites`: acknowledges every write but drops 1 in 100 (the 100th, 200th, ...);
- `StalePointInTime`: graph and policy reads at a timestamp return the latest state.
"""
from __future__ import annotations

from bench.backends.reference.backend import ReferenceBackend


class _Planted(ReferenceBackend):
    options = ()


_READS = ("get_memory", "list_memories", "search_memories", "keyword_search", "graph_get_node", "graph_get_out",
          "graph_get_in", "policy_get", "policy_list", "snapshot_get_node", "snapshot_get_out", "snapshot_get_in")


def _raise(name):
    def read(self, *args, **kwargs):
        raise ValueError(f"planted: {name} refuses every input")
    return read


class RaisingReads(_Planted):
    name = "planted-raising-reads"


for _name in _READS:
    setattr(RaisingReads, _name, _raise(_name))


class EmptyReads(_Planted):
    name = "planted-empty-reads"

    def get_memory(self, memory_id):
        return None

    def list_memories(self, *args, **kwargs):
        return []

    def search_memories(self, *args, **kwargs):
        return []

    def graph_get_node(self, id, at=None):
        return None

    def graph_get_out(self, src, rel=None, at=None):
        return []

    def graph_get_in(self, dst, rel=None, at=None):
        return []


class SwappedOrder(_Planted):
    name = "planted-swapped-order"

    def search_memories(self, *args, **kwargs):
        hits = list(super().search_memories(*args, **kwargs))
        if len(hits) >= 3:
            hits[0], hits[2] = hits[2], hits[0]  # each Hit keeps its own score
        return hits


class LosesWrites(_Planted):
    name = "planted-loses-writes"
    EVERY = 100

    def open(self, *args, **kwargs):
        self._writes = 0
        super().open(*args, **kwargs)

    def _drop(self) -> bool:
        self._writes += 1
        return self._writes % self.EVERY == 0

    def write_memory(self, *args, **kwargs):
        mid = super().write_memory(*args, **kwargs)
        if self._drop():
            self.delete_memory(mid)  # acknowledged, then silently gone
        return mid

    def graph_put_node(self, *args, **kwargs):
        if not self._drop():
            super().graph_put_node(*args, **kwargs)

    def graph_put_edge(self, *args, **kwargs):
        if not self._drop():
            super().graph_put_edge(*args, **kwargs)

    def policy_put(self, *args, **kwargs):
        if not self._drop():
            super().policy_put(*args, **kwargs)


class StalePointInTime(_Planted):
    name = "planted-stale-pit"

    def graph_get_node(self, id, at=None):
        return super().graph_get_node(id)

    def graph_get_out(self, src, rel=None, at=None):
        return super().graph_get_out(src, rel)

    def graph_get_in(self, dst, rel=None, at=None):
        return super().graph_get_in(dst, rel)

    def policy_get(self, scope, namespace, key, at=None):
        return super().policy_get(scope, namespace, key)

    def policy_list(self, scope, namespace, at=None):
        return super().policy_list(scope, namespace)


PLANTED = (RaisingReads, EmptyReads, SwappedOrder, LosesWrites, StalePointInTime)
