"""Planted faults: the reference backend with one thing broken, each a fault the gate must catch.

Search faults wrap every search the steps call (`SEARCHES`: memories, keyword, whole-store, code
and symbol search, the knowledge oracle's search, Memory Lane's find and inject, project search
and file localisation); write faults every write path (`WRITES`: single and batch memory writes,
graph and policy writes, Memory Lane's store, `oracle_learn`, project commits and placeholders).

- `Truncated8`: every result list cut to 8 (top_k is 10);
- `OneQuerySwapped`: one search of the suite only (smoke's first memory search) answers with its top hit last;
- `DropTop`: every result list loses its first hit;
- `SwappedOrder`: every result list with ranks 1 and 3 swapped, each hit keeping its score;
- `StalePointInTime`: graph and policy reads at a timestamp return the latest state;
- `LosesWrites`: acknowledges every write but drops 1 in 100 (the 100th, 200th, ... over all paths),
  with batched memory writes turned off (each goes through `write_memory`);
- `LosesBatchWrites`: the same through the batch path (`write_memories` drops its 100th, ... record);
- `RaisingReads`: every read and search raises ValueError (a declared refusal, not a bug);
- `EmptyReads`: every read and search answers at once, wrongly (nothing found) -- raising must not beat it.

Faults a backend's own change could plausibly bring (each checked to fail the gate on the small suite):

- `DuplicateTop`: every result list repeats its first hit at rank 2 (the last one falls off);
- `ReversedTail`: every result list keeps ranks 1-5 and reverses the rest;
- `IgnoresFilters`: memory search drops its structured filters (task, context, insights, tags, metadata);
- `MissesLastWrite`: searches never return the memory written last (an index one write behind);
- `TruncatesText`: memory writes keep the first 200 characters of their text;
- `LosesMetadata`: memory writes drop their metadata;
- `StoresSecrets`: memory writes skip the secrets redactor;
- `IgnoresFeedback`: Memory Lane feedback is acknowledged and not applied;
- `KeepsSecondCopy`: every memory write also goes to a journal nothing reads (storage grows, answers right).

Project memory's faults fail the gate on a `-branches` scenario, which the small suite lacks
(`BRANCH_FAILS`, tested on `sqlite-utils-branches` by test_planted_gate.py):

- `IgnoresBranch`: project search ignores the branch filter;
- `GcKeepsEverything`: project GC deletes nothing (and says so).

A memory delete that does nothing passes every scenario (no seed names a delete tool, so no scenario deletes
a memory): the contract suite's `test_delete_removes_from_get_and_search` and
`test_delete_is_seen_by_list_and_get_and_survives_reopen` are what catch it (checked with such a backend).
"""
from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from bench.backends.reference.backend import ReferenceBackend

# backend method -> where its ranked list is in the answer (None: the answer is the list)
SEARCHES: dict[str, str | None] = {
    "search_memories": None, "keyword_search": None, "search_all": None, "code_search": None,
    "symbol_search": None, "oracle_search": None, "lane_find": "results", "lane_inject": "memory_ids",
    "project_search": None, "project_locate_files": None}
WRITES = ("write_memory", "write_memories", "graph_put_node", "graph_put_nodes", "graph_put_edge", "graph_put_edges",
          "policy_put", "lane_store", "oracle_learn", "project_record_commit", "project_placeholder")
READS = ("get_memory", "list_memories", "graph_get_node", "graph_get_out", "graph_get_in", "graph_traverse",
         "policy_get", "policy_list", "snapshot_get_node", "snapshot_get_out", "snapshot_get_in",
         "oracle_entities", "oracle_relationships", "oracle_timeline", "pattern_list", "pattern_scan",
         "pattern_scan_memories", "project_get", "project_memories")


class _Planted(ReferenceBackend):
    options = ()


def _with_list(answer: Any, key: str | None, change) -> Any:
    if key is None:
        return change(list(answer))
    return {**answer, key: change(list(answer[key]))}


class _RankFault(_Planted):
    """Applies `change(self, method, hits)` to the ranked list of every search."""

    def change(self, method: str, hits: list) -> list:
        raise NotImplementedError


def _ranked(method: str, key: str | None):
    original = getattr(ReferenceBackend, method)

    @functools.wraps(original)
    def search(self, *args, **kwargs):
        return _with_list(original(self, *args, **kwargs), key, lambda hits: self.change(method, hits))
    return search


for _m, _key in SEARCHES.items():
    setattr(_RankFault, _m, _ranked(_m, _key))


class Truncated8(_RankFault):
    name = "planted-truncate-8"

    def change(self, method, hits):
        return hits[:8]


class DropTop(_RankFault):
    name = "planted-drop-top"

    def change(self, method, hits):
        return hits[1:]


class SwappedOrder(_RankFault):
    name = "planted-swapped-order"

    def change(self, method, hits):
        if len(hits) >= 3:
            hits[0], hits[2] = hits[2], hits[0]  # each Hit keeps its own score
        return hits


class OneQuerySwapped(_RankFault):
    """One query of the suite changes: in scenario `SCENARIO`, the `AT`-th `search_memories` call (from 1)
    answers with its top hit moved last; every other answer is the reference's."""

    name = "planted-one-query-swap"
    SCENARIO, AT = "smoke", 1

    def open(self, data_dir, *args, **kwargs):
        self._calls = 0
        self._scenario = Path(data_dir).parent.name   # the harness opens <work>/<scenario>/store
        super().open(data_dir, *args, **kwargs)

    def change(self, method, hits):
        if method != "search_memories" or self._scenario != self.SCENARIO:
            return hits
        self._calls += 1
        return hits[1:] + hits[:1] if self._calls == self.AT and len(hits) >= 2 else hits


class _CountsWrites(_Planted):
    EVERY = 100

    def open(self, *args, **kwargs):
        self._writes = 0
        super().open(*args, **kwargs)

    def _drop(self) -> bool:
        self._writes += 1
        return self._writes % self.EVERY == 0


def _lossy(method: str):
    original = getattr(ReferenceBackend, method)

    @functools.wraps(original)
    def write(self, *args, **kwargs):
        if not self._drop():
            return original(self, *args, **kwargs)
        return self._acknowledge(method, args, kwargs)   # acknowledged, never stored
    return write


class LosesWrites(_CountsWrites):
    """Drops 1 write in 100 over every single-write path; it has no batch path (`write_memories`)."""

    name = "planted-loses-writes"

    def write_memory(self, *args, **kwargs):
        mid = super().write_memory(*args, **kwargs)
        if self._drop():
            self.delete_memory(mid)  # acknowledged, then silently gone
        return mid

    def _acknowledge(self, method, args, kwargs):
        lost = f"lost-{self._writes}"
        if method in ("project_record_commit", "project_placeholder"):
            return {"memory_id": lost, "duplicate": False, "branch": "main", "bound": []}
        return lost if method in ("lane_store", "oracle_learn") else None


for _m in ("graph_put_node", "graph_put_nodes", "graph_put_edge", "graph_put_edges", "policy_put", "lane_store",
           "oracle_learn", "project_record_commit", "project_placeholder"):
    setattr(LosesWrites, _m, _lossy(_m))


class LosesBatchWrites(_CountsWrites):
    name = "planted-loses-batch-writes"

    def write_memory(self, *args, **kwargs):
        # unchanged, but defined here beside `write_memories`, so the harness batches (write_batch._batches)
        return super().write_memory(*args, **kwargs)

    def write_memories(self, records, times=None):
        ids = super().write_memories(records, times=times)
        for mid in ids:
            if self._drop():
                self.delete_memory(mid)   # acknowledged in the batch's answer, then gone
        return ids


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


def _raise(name):
    def read(self, *args, **kwargs):
        raise ValueError(f"planted: {name} refuses every input")
    return read


class RaisingReads(_Planted):
    name = "planted-raising-reads"


for _m in (*READS, *SEARCHES):
    setattr(RaisingReads, _m, _raise(_m))


def _nothing(method: str, key: str | None):
    def read(self, *args, **kwargs):
        if key is None:
            return []
        return {"results": [], "memory_ids": [], "clarification_required": False, "candidates": {},
                "entities": [], "intents": [], "mode": "planted"}
    return read


class EmptyReads(_Planted):
    """Answers every read at once with nothing and every search at once with `[]` (never raises)."""

    name = "planted-empty-reads"

    def get_memory(self, memory_id):
        return None

    def list_memories(self, *args, **kwargs):
        return []

    def graph_get_node(self, id, at=None):
        return None

    def graph_get_out(self, src, rel=None, at=None):
        return []

    def graph_get_in(self, dst, rel=None, at=None):
        return []


for _m, _key in SEARCHES.items():
    setattr(EmptyReads, _m, _nothing(_m, _key))



class DuplicateTop(_RankFault):
    name = "planted-duplicate-top"

    def change(self, method, hits):
        return hits[:1] + hits[:-1] if len(hits) >= 2 else hits


class ReversedTail(_RankFault):
    name = "planted-reversed-tail"

    def change(self, method, hits):
        return hits[:5] + hits[5:][::-1]


class IgnoresFilters(_Planted):
    name = "planted-ignores-filters"

    def search_memories(self, query=None, task=None, context=None, insights=None, tags=None, top_k=10,
                        where_metadata=None, paths=None):
        return super().search_memories(query, top_k=top_k, paths=paths)


class MissesLastWrite(_RankFault):
    name = "planted-misses-last-write"

    def open(self, *args, **kwargs):
        self._last = None
        super().open(*args, **kwargs)

    def write_memory(self, *args, **kwargs):
        self._last = super().write_memory(*args, **kwargs)
        return self._last

    def write_memories(self, records, times=None):
        ids = super().write_memories(records, times=times)
        self._last = ids[-1] if ids else self._last
        return ids

    def change(self, method, hits):
        return [h for h in hits if getattr(h, "id", h) != self._last]


class TruncatesText(_Planted):
    name = "planted-truncates-text"

    def write_memory(self, text, *args, **kwargs):
        return super().write_memory(text[:200], *args, **kwargs)

    def write_memories(self, records, times=None):
        return super().write_memories([{**r, "text": r["text"][:200]} for r in records], times=times)


class LosesMetadata(_Planted):
    name = "planted-loses-metadata"

    def write_memory(self, *args, metadata=None, **kwargs):
        return super().write_memory(*args, **kwargs)

    def write_memories(self, records, times=None):
        return super().write_memories([{k: v for k, v in r.items() if k != "metadata"} for r in records], times=times)


class StoresSecrets(_Planted):
    name = "planted-stores-secrets"

    def open(self, *args, **kwargs):
        super().open(*args, **kwargs)
        self.store.memories.redactor = None   # read at every write (`Memories.write`)


class IgnoresFeedback(_Planted):
    name = "planted-ignores-feedback"

    def lane_feedback(self, memory_id, signal):
        return self.lane.feedback_state(memory_id).to_dict()   # the counts as they were: nothing recorded


class KeepsSecondCopy(_Planted):
    """Every memory write also appends what it wrote to a journal in the store's folder that nothing reads or
    truncates: a store that writes its data twice, every answer still right."""

    name = "planted-keeps-second-copy"

    def open(self, data_dir, *args, **kwargs):
        self._journal = Path(data_dir) / "second-copy.jsonl"
        super().open(data_dir, *args, **kwargs)

    def _keep(self, records: list[dict[str, Any]]) -> None:
        with self._journal.open("a", encoding="utf-8") as f:
            f.writelines(json.dumps(r, sort_keys=True, default=str) + "\n" for r in records)

    def write_memory(self, text, *args, **kwargs):
        self._keep([{"text": text, **kwargs}])
        return super().write_memory(text, *args, **kwargs)

    def write_memories(self, records, times=None):
        self._keep(records)
        return super().write_memories(records, times=times)


class IgnoresBranch(_Planted):
    name = "planted-ignores-branch"

    def project_search(self, query, top_k=10, branch=None, filtered=True):
        return super().project_search(query, top_k=top_k, branch=branch, filtered=False)


class GcKeepsEverything(_Planted):
    name = "planted-gc-keeps-everything"

    def project_gc(self, live_branches):
        return {"deleted_memories": 0, "deleted_branches": []}


GATE_FAILS = (Truncated8, OneQuerySwapped, DropTop, SwappedOrder, StalePointInTime, LosesWrites, LosesBatchWrites,
              RaisingReads, DuplicateTop, ReversedTail, IgnoresFilters, MissesLastWrite, TruncatesText, LosesMetadata,
              StoresSecrets, IgnoresFeedback, KeepsSecondCopy)
BRANCH_FAILS = (IgnoresBranch, GcKeepsEverything)
PLANTED = (*GATE_FAILS, *BRANCH_FAILS, EmptyReads)
