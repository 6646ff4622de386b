"""Pieces every history scenario shares: aliases, headers, grades, the memory stream, output files."""
from __future__ import annotations

import json
from pathlib import Path

from .dataset import Dataset
from .layout import Layout, task_for
from .texts import memory_text, query_text

Qrels = list[tuple[str, str, int]]
NDCG_TARGET = {"metric": "ndcg@10", "op": ">=", "value": 0.85,
               "source": "seed 001 success criteria: search relevance > 85% (manual eval)"}


def alias(sha: str) -> str:
    return f"c{sha[:10]}"


def lines_grade(lines: int | None) -> int:
    """Grade of an item by the lines behind it, in log-scaled buckets: 1-2 -> 1, 3-9 -> 2, 10+ -> 3."""
    if lines is None or lines < 3:
        return 1
    return 2 if lines < 10 else 3


def source(ds: Dataset) -> str:
    return f"{ds.source}, scenarios/data/{ds.name} (licence and attribution in its README.md)"


def header(ds: Dataset, name: str, description: str, start: float, targets: list[dict],
           oracle: str | None) -> dict:
    return {"scenario": name, "format": 1, "description": description, "start_time": float(start),
            "oracle": oracle, "source": source(ds), "latency_budget_ms": 50, "targets": targets}


def layout_of(ds: Dataset) -> Layout:
    return Layout(f["path"] for c in [*ds.commits, *ds.branch_commits.values()] for f in c["files"])


def write_step(c: dict, layout: Layout) -> dict:
    """The structured memory an agent writes after commit `c`."""
    paths = [f["path"] for f in c["files"]]
    return {"tool": "memory_write_structured", "as": alias(c["sha"]), "args": {
        "text": memory_text(c), "task": task_for(c["subject"]), "context": layout.contexts(paths),
        "tags": sorted({p.split("/")[0] for p in paths})[:8],
        "metadata": {"commit_sha": c["sha"], "files_changed": paths, "git_time": c["commit_time"]}}}


def write_outputs(name: str, lines: list[dict], qrels: Qrels | None, out: Path, oracle_out: Path) -> str:
    """Write `out/<name>.jsonl` and (with judgements) `oracle_out/<name>/qrels.tsv`; return a one-line note."""
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.jsonl").write_text("".join(json.dumps(x, sort_keys=True) + "\n" for x in lines))
    note = f"{out / (name + '.jsonl')}: {len(lines) - 1} steps"
    if qrels is not None:
        qdir = oracle_out / name
        qdir.mkdir(parents=True, exist_ok=True)
        (qdir / "qrels.tsv").write_text("query_id\titem_id\tgrade\n" + "".join(f"{q}\t{d}\t{g}\n" for q, d, g in qrels))
        note += f", {len({q for q, _, _ in qrels})} judged queries, {len(qrels)} judgements"
    return note


def memory_stream(ds, layout, asked: set[int] | list[int], judged, with_paths: bool = False
                  ) -> tuple[list[dict], Qrels]:
    """Steps of the commit-memory stream: each commit written at its time, a sampled one asked first.

    `judged(i, qid)` gives the qrels rows of the query asked before commit `i` (blame and history share
    the stream and differ only in their judgements). `with_paths` adds to each query the paths the
    commit is about to touch (`paths`: the agent's working files), in the commit's order.
    """
    work = ds.work
    steps: list[dict] = [{"directive": "session", "session_id": "history", "run_id": "replay",
                          "scope": f"repo:{ds.name}"}]
    qrels: Qrels = []
    clock = float(work[0]["commit_time"])
    for i, c in enumerate(work):
        clock = max(clock, float(c["commit_time"]))
        steps.append({"directive": "set_clock", "time": clock})
        if i in asked:
            qid = f"q{c['sha'][:10]}"
            args = {"query": query_text(c), "top_k": 10}
            if with_paths:
                args["paths"] = list(dict.fromkeys(f["path"] for f in c["files"]))
            steps.append({"tool": "memory_search_structured", "args": args,
                          "id": qid, "category": layout.category([f["path"] for f in c["files"]])})
            qrels += judged(i, qid)
        steps.append(write_step(c, layout))
    return steps, qrels

