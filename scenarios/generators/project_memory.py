"""Generate the project memory scenarios (seed 002) from the real sqlite-utils history.

    python scenarios/generators/project_memory.py

Writes `scenarios/project-branches.jsonl`, `project-dedup.jsonl`,
`project-files.jsonl` and their judgements in `oracle_data/<name>/qrels.tsv`.
Deterministic (no randomness): rerun it and the committed files must not change.

Ground truth comes only from this script's plain-Python model of the data:
- every default-branch commit of `commits.jsonl` belongs to `main`; every
  sha of `branches.jsonl` to the first branch that lists it (a sha listed
  again is not replayed again);
- branch commits have no message in the data, so their text is made the way
  reference/project/README.md documents (the branch name's words, the merge
  base, the files most changed around it), re-implemented here;
- relevance: a branch query's relevant memories are that branch's commits;
  a file query's relevant files are the files its commit changed that exist
  in the snapshot or were changed before.
"""
from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "scenarios" / "data" / "sqlite-utils"
SOURCE = "github.com/simonw/sqlite-utils (Apache-2.0), scenarios/data/sqlite-utils"
DEFAULT = "main"
NEIGHBOURS, NEAR_FILES = 6, 8
BODY_CHARS = 600
AGENT_PREFIXES = ("claude/", "codex/", "copilot/")   # the branches the GC step finds deleted
PRECISION = {"metric": "branch_precision", "op": ">", "value": 0.95,
             "source": "seed 002 success metrics: context precision > 95% of retrieved chunks match the branch"}
DEDUP = {"metric": "duplicate_rate", "op": "<", "value": 0.05,
         "source": "seed 002 success metrics: deduplication rate < 5% duplicate documents",
         "needs": ["commit", "project_placeholder"]}
STORAGE = {"metric": "storage_bytes_per_1000_commits", "op": "<", "value": 10_000_000,
           "source": "seed 002 success metrics: storage efficiency < 10MB per 1000 commits", "needs": ["commit"]}


# -- the data and the model ---------------------------------------------------------------
def load() -> tuple[list[dict], list[dict]]:
    read = lambda name: [json.loads(x) for x in (DATA / name).read_text().splitlines() if x.strip()]  # noqa: E731
    return read("commits.jsonl"), read("branches.jsonl")


def topic(name: str) -> str:
    words = []
    for w in re.split(r"[/\-_.]+", name):
        mixed = (any(c.isdigit() for c in w) and any(c.isalpha() for c in w)) or \
                (any(c.isupper() for c in w[1:]) and any(c.islower() for c in w))
        if w and not (len(w) >= 5 and mixed):
            words.append(w)
    return " ".join(words) or name


def message(c: dict) -> str:
    return f"{c['subject'].strip()}\n\n{c['body'].strip()}".strip()


def query_text(c: dict) -> str:
    return f"{c['subject'].strip()}\n\n{c['body'].strip()[:BODY_CHARS]}".strip()


def events(commits: list[dict], branches: list[dict]) -> list[dict]:
    """Main and branch commits as one time-ordered stream of {sha, parent, branch, time, message, files, base}."""
    at = {c["sha"]: i for i, c in enumerate(commits)}
    out, clock = [], 0
    for i, c in enumerate(commits):
        clock = max(clock, c["commit_time"])  # the replay clock never goes back
        out.append({"sha": c["sha"], "parent": (c["parents"] or [None])[0], "branch": DEFAULT, "time": clock,
                    "message": message(c), "files": [f["path"] for f in c["files"]], "order": (clock, 0, i, 0),
                    "commit": c})
    times = {e["sha"]: e["time"] for e in out}
    seen = set(at)
    for b_i, b in enumerate(branches):
        base_at = at[b["merge_base"]]
        base = commits[base_at]
        near = Counter(f["path"] for c in commits[max(0, base_at - NEIGHBOURS): base_at + 1] for f in c["files"])
        files = [f for f, _ in sorted(near.items(), key=lambda x: (-x[1], x[0]))[:NEAR_FILES]]
        parent, n = b["merge_base"], len(b["commits"])
        for i, sha in enumerate(b["commits"], start=1):
            if sha not in seen:
                seen.add(sha)
                t = times[b["merge_base"]] + i
                body = (f'Commit {i} of {n} on {b["name"]}, branched from {DEFAULT} at {base["sha"][:12]} '
                        f'("{base["subject"]}").\nFiles near the branch point: {", ".join(files)}')
                out.append({"sha": sha, "parent": parent, "branch": b["name"], "time": t, "base": b["merge_base"],
                            "message": f"Work on branch {b['name']}: {topic(b['name'])}\n\n{body}", "files": [],
                            "order": (t, 1, b_i, i)})
            parent = sha
    return sorted(out, key=lambda e: e["order"])


def alias(sha: str) -> str:
    return f"c{sha[:10]}"


def header(name: str, description: str, start: float, targets: list[dict], oracle: str | None) -> dict:
    return {"scenario": name, "format": 1, "description": description, "start_time": float(start),
            "oracle": oracle, "source": SOURCE, "latency_budget_ms": 50, "targets": targets}


def commit_step(e: dict, **extra) -> dict:
    return {"directive": "commit", "sha": e["sha"], "parent": e["parent"], "files": e["files"],
            "message": e["message"], "time": float(e["time"]), **extra}


class Writer:
    """Emits steps while tracking the current branch and every branch's head, as the harness will."""

    def __init__(self) -> None:
        self.steps: list[dict] = [{"directive": "session", "session_id": "project", "run_id": "replay",
                                   "scope": "repo:sqlite-utils"},
                                  {"directive": "branch", "name": DEFAULT, "default": True}]
        self.current, self.heads = DEFAULT, {DEFAULT: None}
        self.switched = {DEFAULT}

    def switch(self, e: dict) -> None:
        if e["branch"] != self.current:
            step = {"directive": "branch", "name": e["branch"]}
            if e["branch"] not in self.switched and e.get("base"):
                step["base"] = e["base"]
                self.heads[e["branch"]] = e["base"]
            self.steps.append(step)
            self.current = e["branch"]
            self.switched.add(e["branch"])

    def commit(self, e: dict, **extra) -> None:
        self.switch(e)
        self.steps.append(commit_step(e, **extra))
        self.heads[e["branch"]] = e["sha"]


def placeholder_summary(e: dict) -> str:
    c = e.get("commit")
    if c is None:
        return f"Asked o3 how to start {e['branch']} ({topic(e['branch'])}); agreed to work near the branch point."
    body = c["body"].strip()[:300]
    return f"Asked o3 how to approach: {c['subject'].strip()}." + (f" Notes: {body}" if body else "")


# -- project-branches ---------------------------------------------------------------------
def project_branches(commits: list[dict], branches: list[dict]) -> tuple[list[dict], list[tuple[str, str, int]]]:
    evs = events(commits, branches)
    by_branch: dict[str, list[str]] = {}
    for e in evs:
        by_branch.setdefault(e["branch"], []).append(e["sha"])
    last = {b: shas[-1] for b, shas in by_branch.items()}
    first = {b: shas[0] for b, shas in by_branch.items()}
    w, qrels = Writer(), []
    labels: dict[str, str] = {}   # alias -> branch
    main_seen, asked = 0, 0
    for e in evs:
        b = e["branch"]
        w.switch(e)
        with_session = False
        if b == DEFAULT:
            main_seen += 1
            with_session = main_seen >= 100 and main_seen % 25 == 0 and e["parent"] == w.heads[DEFAULT]
        else:
            with_session = first[b] == e["sha"] and len(by_branch[b]) >= 2 and sorted(by_branch).index(b) % 4 == 0
        if with_session:
            p = f"p{e['sha'][:10]}"
            w.steps.append({"tool": "project_placeholder", "as": p,
                            "args": {"summary": placeholder_summary(e), "session_id": f"s-{e['sha'][:8]}",
                                     "tool_name": "chat_with_o3"}})
            labels[p] = b
        w.commit(e, **{"as": alias(e["sha"])})
        labels[alias(e["sha"])] = b
        if with_session:
            w.steps.append({"tool": "project_memory_get", "args": {"memory_id": f"$p{e['sha'][:10]}"},
                            "expect": {"fields": {"kind": "session", "placeholder": False, "commit_sha": e["sha"],
                                                  "prev_commit_sha": e["parent"], "branch": b}}})
        if b == DEFAULT and main_seen % 150 == 0:
            w.steps.append({"tool": "project_memory_get", "args": {"memory_id": "$" + alias(e["sha"])},
                            "expect": {"fields": {"kind": "commit", "branch": b, "commit_sha": e["sha"],
                                                  "parent_sha": e["parent"], "git_time": int(e["time"]),
                                                  "files_changed": e["files"], "placeholder": False}}})
        if b != DEFAULT and last[b] == e["sha"]:
            asked += 1
            qid = f"b{asked:03d}"
            q = {"query": topic(b), "top_k": 10}
            w.steps.append({"tool": "project_memory_search", "args": q, "id": qid, "category": "on-branch"})
            qrels += [(qid, alias(s), 1) for s in by_branch[b]]
            w.steps.append({"tool": "project_memory_search", "args": {**q, "filtered": False}})
            if asked % 3 == 0:   # the same question asked from main must not see the branch
                w.switch({"branch": DEFAULT})
                w.steps.append({"tool": "project_memory_search", "args": q, "category": "on-main",
                                "expect": {"excludes": [alias(s) for s in by_branch[b]]}})
    w.switch({"branch": DEFAULT})
    tail_sha = w.heads[DEFAULT]
    w.steps.append({"tool": "project_placeholder", "as": "p_pending",
                    "args": {"summary": "Asked o3 to review the release notes; nothing committed yet.",
                             "session_id": "s-pending", "tool_name": "chat_with_o3"}})
    live = sorted({DEFAULT} | {b["name"] for b in branches if not b["name"].startswith(AGENT_PREFIXES)})
    dead = sorted(b for b in w.switched if b not in live)
    doomed = [a for a, b in labels.items() if b in dead]
    w.steps.append({"tool": "project_gc", "args": {"live_branches": live},
                    "expect": {"equals": {"deleted_memories": len(doomed), "deleted_branches": dead}}})
    for b in dead[:3]:
        w.steps.append({"tool": "project_memory_search", "args": {"query": topic(b), "top_k": 10, "filtered": False},
                        "category": "after-gc", "expect": {"excludes": [a for a in doomed if labels[a] == b]}})
    n_sessions = sum(1 for a in labels if a.startswith("p"))
    w.steps.append({"tool": "project_stats", "args": {}, "expect": {"fields": {
        "default_branch": DEFAULT, "current_branch": DEFAULT, "commits": len(labels) - n_sessions - len(
            [a for a in doomed if a.startswith("c")]),
        "pending_placeholders": 1, "duplicates_skipped": 0, "branches": len(w.switched) - len(dead),
        "deleted_branches": len(dead)}}})
    w.steps.append({"tool": "project_audit", "args": {}})
    assert tail_sha is not None
    head = header("project-branches",
                  "Real sqlite-utils history with its 73 branches replayed in time order, switching branches as "
                  "commits arrive; on-branch queries must retrieve only the branch's and main's memories; "
                  "sessions bound to commits by placeholders; GC of the deleted agent branches.",
                  evs[0]["time"], [PRECISION, STORAGE], "project-branches")
    return [head, *w.steps], qrels


# -- project-dedup ------------------------------------------------------------------------
def project_dedup(commits: list[dict], branches: list[dict]) -> list[dict]:
    window = {c["sha"] for c in commits[300:500]}
    kept = [b for b in branches if b["merge_base"] in window]
    evs = [e for e in events(commits, kept) if e["sha"] in window or e["branch"] != DEFAULT]
    w = Writer()
    w.heads[DEFAULT] = evs[0]["parent"]
    w.steps[1]["base"] = evs[0]["parent"]
    docs, with_session = 0, set()
    for rnd in (1, 2):
        w.steps.append({"directive": "session", "session_id": f"replay-{rnd}", "run_id": f"pass-{rnd}",
                        "scope": "repo:sqlite-utils"})
        for n, e in enumerate(evs):
            w.switch(e)
            if rnd == 1 and n % 4 == 0 and e["parent"] == w.heads[e["branch"]]:
                with_session.add(n)   # the second pass replays exactly the same sessions
            if n in with_session:
                step = {"tool": "project_placeholder", "args": {"summary": placeholder_summary(e),
                                                                "session_id": f"s-{e['sha'][:8]}"}}
                if rnd == 2:
                    step["expect"] = {"fields": {"duplicate": True}}
                w.steps.append(step)
            extra = {"expect": {"fields": {"duplicate": True}}} if rnd == 2 else {}
            w.commit(e, **extra)
            docs += rnd == 1
        w.switch({"branch": DEFAULT})
    sessions = len(with_session)
    w.steps.append({"tool": "project_stats", "args": {}, "expect": {"fields": {
        "memories": docs + sessions, "commits": docs, "session_memories": sessions, "pending_placeholders": 0,
        "duplicates_skipped": docs + sessions}}})
    w.steps.append({"tool": "project_audit", "args": {"storage": False}})   # 224 commits: mostly fixed overhead
    head = header("project-dedup",
                  "200 real sqlite-utils commits with their branches and 1 session in 4, fed twice (the same "
                  "sessions and commits replayed): the second pass must store nothing new.",
                  evs[0]["time"], [DEDUP], None)
    return [head, *w.steps]


# -- project-files ------------------------------------------------------------------------
def project_files(commits: list[dict]) -> tuple[list[dict], list[tuple[str, str, int]]]:
    snapshot = {json.loads(x)["path"] for x in (DATA / "snapshot.jsonl").read_text().splitlines() if x.strip()}
    w = Writer()
    w.steps.append({"tool": "project_index_snapshot", "args": {"path": "data/sqlite-utils/snapshot.jsonl"}})
    seen: set[str] = set()
    qrels, eligible = [], 0
    for i, e in enumerate(events(commits, [])):
        c = e["commit"]
        findable = sorted(f for f in set(e["files"]) if f in snapshot or f in seen)
        if i >= 200 and findable and len(query_text(c)) >= 20:
            eligible += 1
            if eligible % 6 == 0:
                qid = f"f{c['sha'][:10]}"
                w.steps.append({"tool": "project_locate_files", "args": {"query": query_text(c), "top_k": 10},
                                "id": qid, "category": _category(findable)})
                qrels += [(qid, f"file:{f}", 1) for f in findable]
        w.commit(e, **{"as": alias(e["sha"])})
        seen.update(e["files"])
    head = header("project-files",
                  "File localisation on real sqlite-utils history: before a commit is recorded, its subject and "
                  "body ask which files it will change, searched over the indexed snapshot and the earlier "
                  "commit memories; relevant: the files it changed that were findable.",
                  commits[0]["commit_time"], [], "project-files")
    return [head, *w.steps], qrels


def _category(files: list[str]) -> str:
    if any(f.startswith("sqlite_utils/") for f in files):
        return "code"
    if any(f.startswith("tests/") for f in files):
        return "tests"
    return "docs" if any(f.startswith("docs/") or f.endswith((".md", ".rst")) for f in files) else "project"


def write(name: str, lines: list[dict], qrels: list[tuple[str, str, int]] | None) -> None:
    out = ROOT / "scenarios" / f"{name}.jsonl"
    out.write_text("".join(json.dumps(x, sort_keys=True) + "\n" for x in lines))
    note = ""
    if qrels is not None:
        qdir = ROOT / "oracle_data" / name
        qdir.mkdir(parents=True, exist_ok=True)
        (qdir / "qrels.tsv").write_text("query_id\titem_id\tgrade\n" + "".join(f"{q}\t{d}\t{g}\n" for q, d, g in qrels))
        note = f", {len({q for q, _, _ in qrels})} judged queries, {len(qrels)} judgements"
    print(f"{out.relative_to(ROOT)}: {len(lines) - 1} steps{note}", file=sys.stderr)


def main() -> int:
    commits, branches = load()
    write("project-branches", *project_branches(commits, branches))
    write("project-dedup", project_dedup(commits, branches), None)
    write("project-files", *project_files(commits))
    return 0


if __name__ == "__main__":
    sys.exit(main())
