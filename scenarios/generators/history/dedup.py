"""`<data>-dedup`: the same commits and sessions fed twice; the second pass must store nothing new.

Window rule (no fixed positions): of all runs of DEDUP_WINDOW consecutive
non-merge default-branch commits (all of them if fewer), the one whose
commits are the merge bases of the most branch commits; the earliest on a tie.
The run's commits, the branches based in it with their commits, and a session
for 1 event in 4 (whose parent is the recorded head) are replayed twice.
"""
from __future__ import annotations

from .dataset import Dataset, is_merge
from .project import Writer, events, placeholder_summary

DEDUP_WINDOW = 200
SESSION_EVERY = 4
DEDUP = {"metric": "duplicate_rate", "op": "<", "value": 0.05,
         "source": "seed 002 success metrics: deduplication rate < 5% duplicate documents",
         "needs": ["commit", "project_placeholder"]}


def window(ds: Dataset) -> tuple[set[str], list[dict]]:
    """The main shas of the window and the branches whose merge base lies in it."""
    work = ds.work
    pos, last = {}, -1
    for c in ds.commits:             # a merge base that is a merge counts at the last work commit before it
        if not is_merge(c):
            last += 1
        pos[c["sha"]] = max(last, 0)
    weight = [0] * len(work)
    for b in ds.branches:
        if b["merge_base"] in pos:
            weight[pos[b["merge_base"]]] += len(b["commits"])
    size = min(DEDUP_WINDOW, len(work))
    best, best_at, run = -1, 0, sum(weight[:size])
    for s in range(len(work) - size + 1):
        if s:
            run += weight[s + size - 1] - weight[s - 1]
        if run > best:
            best, best_at = run, s
    shas = {c["sha"] for c in work[best_at:best_at + size]}
    return shas, [b for b in ds.branches if b["merge_base"] in pos and work[pos[b["merge_base"]]]["sha"] in shas]


def build(ds: Dataset, name: str, split: str = "scored") -> tuple[list[dict], None]:
    shas, kept = window(ds)
    evs = events(ds, kept, shas)
    w = Writer(ds)
    w.heads[ds.default_branch] = evs[0]["parent"]
    w.steps[1]["base"] = evs[0]["parent"]
    docs, with_session = 0, set()
    for rnd in (1, 2):
        w.steps.append({"directive": "session", "session_id": f"replay-{rnd}", "run_id": f"pass-{rnd}",
                        "scope": f"repo:{ds.name}"})
        for n, e in enumerate(evs):
            w.switch(e["branch"], e.get("base"))
            if rnd == 1 and n % SESSION_EVERY == 0 and e["parent"] == w.heads[e["branch"]]:
                with_session.add(n)   # the second pass replays exactly the same sessions
            if n in with_session:
                step = {"tool": "project_placeholder", "args": {"summary": placeholder_summary(e),
                                                                "session_id": f"s-{e['sha'][:8]}"}}
                if rnd == 2:
                    step["expect"] = {"fields": {"duplicate": True}}
                w.steps.append(step)
            w.commit(e, **({"expect": {"fields": {"duplicate": True}}} if rnd == 2 else {}))
            docs += rnd == 1
        w.switch(ds.default_branch)
    sessions = len(with_session)
    w.steps.append({"tool": "project_stats", "args": {}, "expect": {"fields": {
        "memories": docs + sessions, "commits": docs, "session_memories": sessions, "pending_placeholders": 0,
        "duplicates_skipped": docs + sessions}}})
    w.steps.append({"tool": "project_audit", "args": {"storage": False}})   # a short run is mostly fixed overhead
    n_main = sum(1 for e in evs if e["branch"] == ds.default_branch)
    head = {"scenario": name, "format": 1, "start_time": float(evs[0]["time"]), "oracle": None,
            "description": f"{n_main} real {ds.name} commits with the {len(evs) - n_main} commits of the branches "
                           "based among them and 1 session in 4, fed twice: the second pass must store nothing new.",
            "source": f"{ds.source}, scenarios/data/{ds.name} (licence and attribution in its README.md)",
            "latency_budget_ms": 50, "targets": [DEDUP]}
    return [head, *w.steps], None
