"""Replay a scenario's own writes and queries (no backend) and rank each query with a baseline.

What the replay sees, step by step:
- memory documents: `memory_write_structured` and `memory_write` (`text`),
  `memory-lane_store` (`information`), `oracle_learn` (`pattern`), each under
  its `as` name, in write order;
- project documents: `commit` directives (`message` and the file list) and
  `project_placeholder` (`summary`) under their `as` names, labelled with the
  branch they were written on; `project_gc` removes the labels' dead branches;
- file documents `file:<path>`: every path a `commit` names; a file's text is
  its path's words plus the messages of the commits that changed it; its
  recency is the last commit that changed it.
Ranked queries (`expect.relevant` and a `query` argument): memory searches
(`memory_search_structured`, `memory_search`, `oracle_search`,
`memory-lane_find`, `memory-lane_inject`) rank memory documents, ignoring any
other filter; `project_memory_search` ranks project documents on the asked (or
current) branch or the default branch (all branches with `filtered: false`);
`project_locate_files` ranks file documents. Other ranked steps (entities,
timelines, ...) have no text query to rank by and are left out (`queries`
says how many were scored).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from bench.baselines.bm25 import BM25Index
from bench.baselines.recency import most_recent_ordered
from bench.scenario.model import Scenario, Step

MEMORY_TEXT = {"memory_write_structured": "text", "memory_write": "text", "memory-lane_store": "information",
               "oracle_learn": "pattern"}
MEMORY_QUERIES = {"memory_search_structured", "memory_search", "oracle_search", "memory-lane_find",
                  "memory-lane_inject"}


@dataclass
class Pool:
    """One kind of document: a BM25 index and each document's last write order.

    `order` is kept in ascending insertion order (a re-added document moves to
    the end), which lets the recency baseline read it from the newest end.
    """

    index: BM25Index = field(default_factory=BM25Index)
    order: dict[str, int] = field(default_factory=dict)

    def add(self, doc: str, text: str, n: int) -> None:
        self.index.add(doc, text)
        self.order.pop(doc, None)
        self.order[doc] = n

    def remove(self, doc: str) -> None:
        self.index.remove(doc)
        self.order.pop(doc, None)


@dataclass
class Asked:
    """A ranked query and each baseline's ranking of it, made when it was asked."""

    step: Step
    grades: dict[str, int]
    k: int
    runs: dict[str, list[str]]


def _rank(step: Step, query: str, pool: Pool, allowed: Callable[[str], bool]) -> Asked:
    grades, k = step.expect.grades(), step.expect.k
    depth = max(k, 10)
    return Asked(step, grades, k, {"recency": most_recent_ordered(pool.order, depth, allowed),
                                   "bm25": pool.index.search(query, depth, allowed, pool.order)})


def ranked_queries(scenario: Scenario) -> Iterator[Asked]:
    """Walk the steps in order, keeping the pools current; yield each answerable ranked query."""
    memories, project, files = Pool(), Pool(), Pool()
    branch = {"current": None, "default": None}
    label: dict[str, str | None] = {}
    for n, step in enumerate(scenario.steps):
        a = step.raw_args
        if step.expect is not None and step.expect.relevant is not None and isinstance(a.get("query"), str):
            asked = _asked(step, a, memories, project, files, branch, label)
            if asked is not None:
                yield asked
        if step.name in MEMORY_TEXT and step.alias and isinstance(a.get(MEMORY_TEXT[step.name]), str):
            memories.add(step.alias, a[MEMORY_TEXT[step.name]], n)
        elif step.name == "branch":
            branch["current"] = a["name"]
            if a.get("default"):
                branch["default"] = a["name"]
        elif step.name == "commit":
            paths = list(a.get("files") or [])
            if step.alias and step.alias not in project.order:
                project.add(step.alias, f"{a['message']}\n{' '.join(paths)}", n)
                label[step.alias] = a.get("branch") or branch["current"]
            for p in paths:
                files.add(f"file:{p}", f"{p.replace('/', ' ')}\n{a['message']}", n)
        elif step.name == "project_placeholder" and step.alias:
            project.add(step.alias, a["summary"], n)
            label[step.alias] = branch["current"]
        elif step.name == "project_gc":
            live = set(a["live_branches"]) | {branch["default"]}
            for doc in [d for d, b in label.items() if b not in live]:
                project.remove(doc)


def _asked(step, a, memories, project, files, branch, label) -> Asked | None:
    if step.name in MEMORY_QUERIES:
        return _rank(step, a["query"], memories, lambda d: True)
    if step.name == "project_memory_search":
        if a.get("filtered", True):
            ok = {branch["default"], a.get("branch") or branch["current"]}
            return _rank(step, a["query"], project, lambda d: label.get(d) in ok)
        return _rank(step, a["query"], project, lambda d: True)
    if step.name == "project_locate_files":
        return _rank(step, a["query"], files, lambda d: True)
    return None
