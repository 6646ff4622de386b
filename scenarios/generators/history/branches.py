"""`<data>-branches`: branch isolation with real branch commits (seed 002).

All events (`project.events`) are replayed, switching branch as commits
arrive. Before each branch commit that is not its branch's first (and is not a
calibration commit), its subject and body are asked on that branch (ranked);
relevant: the branch's commits recorded so far, grade 2 when one shares a
file with the commit about to be made, else 1. The same query is asked
unfiltered (for `branch_precision_unfiltered`). Category `on-branch`.

Before each sampled default-branch commit (not a calibration commit), its
subject and body are asked on the default branch (category
`default-blame`, ranked): relevant are the commits that last wrote the lines
it deletes or rewrites (`blame.jsonl`, graded by lines as in `<data>-blame`),
restricted to the default-branch memories recorded so far. Branch memories
are distractors the branch filter must exclude (they count in
`branch_precision`). The two kinds are sampled apart, each spread over the
whole history (`sampling.spread`). After a branch's last commit,
for every third branch, that commit's subject is asked from the default
branch, which must not return the branch's memories. Sessions: a placeholder
before every SESSION_EVERY-th default-branch commit (whose parent is the
recorded head) and before the first commit of every fourth branch (by name)
with at least two commits, bound by that commit and read back. Every
GET_EVERY-th default-branch commit is read back. At the end, one placeholder
stays pending, and GC deletes the older half of the branches by tip time
(they stand for branches deleted upstream), checked exactly.
"""
from __future__ import annotations

from .common import Qrels, alias, header, lines_grade
from .dataset import Dataset
from .project import Writer, events, placeholder_summary
from .sampling import in_split, spread
from .texts import MIN_QUERY_CHARS, query_text

SESSION_EVERY, GET_EVERY, FROM_MAIN_EVERY = 25, 150, 3
PRECISION = {"metric": "branch_precision", "op": ">", "value": 0.95,
             "source": "seed 002 success metrics: context precision > 95% of retrieved chunks match the branch"}
STORAGE = {"metric": "storage_bytes_per_1000_commits", "op": "<", "value": 10_000_000,
           "source": "seed 002 success metrics: storage efficiency < 10MB per 1000 commits", "needs": ["commit"]}


def _queries(ds: Dataset, evs: list[dict], split: str) -> dict[int, dict[str, int]]:
    done: dict[str, list[dict]] = {}
    truth = {}
    for n, e in enumerate(evs):
        b = e["branch"]
        if b != ds.default_branch:
            earlier = done.setdefault(b, [])
            if earlier and in_split(ds.position(e["sha"]), split) and len(query_text(e["commit"])) >= MIN_QUERY_CHARS:
                truth[n] = {alias(p["sha"]): 2 if set(p["files"]) & set(e["files"]) else 1 for p in earlier}
            earlier.append(e)
    return {n: truth[n] for n in spread(sorted(truth))}


def _default_queries(ds: Dataset, evs: list[dict], split: str) -> dict[int, dict[str, int]]:
    """Event index -> blame judgements of the sampled default-branch commits (only recorded default memories)."""
    seen: set[str] = set()
    truth = {}
    for n, e in enumerate(evs):
        if e["branch"] != ds.default_branch:
            continue
        origins = {alias(o): lines_grade(k) for o, k in ds.blame.get(e["sha"], {}).items() if o in seen}
        if origins and in_split(ds.position(e["sha"]), split) and len(query_text(e["commit"])) >= MIN_QUERY_CHARS:
            truth[n] = origins
        seen.add(e["sha"])
    return {n: truth[n] for n in spread(sorted(truth))}


def build(ds: Dataset, name: str, split: str = "scored") -> tuple[list[dict], Qrels]:
    evs = events(ds)
    default = ds.default_branch
    asked = _queries(ds, evs, split)
    on_default = _default_queries(ds, evs, split)
    by_branch: dict[str, list[str]] = {}
    for e in evs:
        by_branch.setdefault(e["branch"], []).append(e["sha"])
    last = {b: shas[-1] for b, shas in by_branch.items()}
    first = {b: shas[0] for b, shas in by_branch.items()}
    session_branches = sorted(b for b, s in by_branch.items() if b != default and len(s) >= 2)[::4]
    w, qrels, labels = Writer(ds), [], {}
    main_seen, finished = 0, 0
    for n, e in enumerate(evs):
        b = e["branch"]
        w.switch(b, e.get("base"))
        if b == default:
            main_seen += 1
            with_session = main_seen % SESSION_EVERY == 0
        else:
            with_session = first[b] == e["sha"] and b in session_branches
        with_session = with_session and e["parent"] == w.heads[b]
        if n in asked:
            qid = f"b{e['sha'][:10]}"
            q = {"query": query_text(e["commit"]), "top_k": 10}
            w.steps.append({"tool": "project_memory_search", "args": q, "id": qid, "category": "on-branch"})
            qrels += [(qid, a, g) for a, g in sorted(asked[n].items())]
            w.steps.append({"tool": "project_memory_search", "args": {**q, "filtered": False}})
        if n in on_default:
            qid = f"d{e['sha'][:10]}"
            w.steps.append({"tool": "project_memory_search", "args": {"query": query_text(e["commit"]), "top_k": 10},
                            "id": qid, "category": "default-blame"})
            qrels += [(qid, a, g) for a, g in sorted(on_default[n].items())]
        if with_session:
            p = f"p{e['sha'][:10]}"
            w.steps.append({"tool": "project_placeholder", "as": p,
                            "args": {"summary": placeholder_summary(e), "session_id": f"s-{e['sha'][:8]}",
                                     "tool_name": "chat_with_o3"}})
            labels[p] = b
        w.commit_as(e)
        labels[alias(e["sha"])] = b
        if with_session:
            w.steps.append({"tool": "project_memory_get", "args": {"memory_id": f"$p{e['sha'][:10]}"},
                            "expect": {"fields": {"kind": "session", "placeholder": False, "commit_sha": e["sha"],
                                                  "prev_commit_sha": e["parent"], "branch": b}}})
        if b == default and main_seen % GET_EVERY == 0:
            w.steps.append({"tool": "project_memory_get", "args": {"memory_id": "$" + alias(e["sha"])},
                            "expect": {"fields": {"kind": "commit", "branch": b, "commit_sha": e["sha"],
                                                  "parent_sha": e["parent"], "git_time": int(e["time"]),
                                                  "files_changed": e["files"], "placeholder": False}}})
        if b != default and last[b] == e["sha"]:
            finished += 1
            if finished % FROM_MAIN_EVERY == 0:   # the branch's own words asked from main must not see it
                w.switch(default)
                w.steps.append({"tool": "project_memory_search", "category": "on-main",
                                "args": {"query": e["commit"]["subject"], "top_k": 10},
                                "expect": {"excludes": [alias(s) for s in by_branch[b]]}})
    w.switch(default)
    w.steps.append({"tool": "project_placeholder", "as": "p_pending",
                    "args": {"summary": "Asked o3 to review the release notes; nothing committed yet.",
                             "session_id": "s-pending", "tool_name": "chat_with_o3"}})
    tip_time = {b: max(e["time"] for e in evs if e["branch"] == b) for b in by_branch if b != default}
    by_age = sorted(tip_time, key=lambda b: (tip_time[b], b))
    dead = sorted(by_age[:len(by_age) // 2])
    live = sorted({default} | {b["name"] for b in ds.branches} - set(dead))
    doomed = [a for a, b in labels.items() if b in dead]
    w.steps.append({"tool": "project_gc", "args": {"live_branches": live},
                    "expect": {"equals": {"deleted_memories": len(doomed), "deleted_branches": dead}}})
    for b in dead[:3]:
        subject = next(e["commit"]["subject"] for e in evs if e["sha"] == last[b])
        w.steps.append({"tool": "project_memory_search", "args": {"query": subject, "top_k": 10, "filtered": False},
                        "category": "after-gc", "expect": {"excludes": [a for a in doomed if labels[a] == b]}})
    n_sessions = sum(1 for a in labels if a.startswith("p"))
    w.steps.append({"tool": "project_stats", "args": {}, "expect": {"fields": {
        "default_branch": default, "current_branch": default,
        "commits": len(labels) - n_sessions - len([a for a in doomed if a.startswith("c")]),
        "pending_placeholders": 1, "duplicates_skipped": 0, "branches": len(w.switched) - len(dead),
        "deleted_branches": len(dead)}}})
    w.steps.append({"tool": "project_audit", "args": {}})
    head = header(ds, name, f"Real {ds.name} history with its {len(by_branch) - 1} branches' own commits replayed in "
                  "time order, switching branches as commits arrive; before a branch commit its subject and body "
                  "ask on the branch for the branch's earlier work, and before a default-branch commit its subject "
                  "and body ask on the default branch for the commits that last wrote the lines it changes (git "
                  "blame); searches must stay on the branch and the default branch; sessions bound by placeholders; GC of the older half of the branches.",
                  evs[0]["time"], [PRECISION, STORAGE], name)
    return [head, *w.steps], qrels
