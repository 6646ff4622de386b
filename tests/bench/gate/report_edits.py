"""Edits of a saved report.json for gate tests: what a broken adapter or one unlucky query leaves behind."""
from __future__ import annotations

import copy
import json
from pathlib import Path

RANKING = ("mrr@10", "ndcg@10", "precision@10", "recall@10", "mrr@5", "precision@5", "recall@5")


def emptied(report: dict) -> dict:
    """A copy in which every ranked query retrieved nothing (search hits read from a field without ids)."""
    out = copy.deepcopy(report)
    for scenario in out["scenarios"].values():
        for q in scenario["per_query"]:
            for m in RANKING:
                if m in q:
                    q[m] = 0.0
    return out


def one_query_missed(report: dict) -> str:
    """In place: one answered query of the largest ranked scenario misses its note; that scenario's name."""
    name, scenario = max(report["scenarios"].items(), key=lambda kv: len(kv[1]["per_query"]))
    answered = next(q for q in scenario["per_query"] if q.get("ndcg@10"))
    for m in RANKING:
        if m in answered:
            answered[m] = 0.0
    return name


def saved(report: dict, folder: Path) -> Path:
    """`report` written as `folder`/report.json (the folder made); the folder, as a run's report folder."""
    folder.mkdir(parents=True)
    (folder / "report.json").write_text(json.dumps(report))
    return folder
