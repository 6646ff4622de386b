"""Generate the `sqlite-utils-history` scenario and its judgements from real git history.

Commits are replayed oldest first as memories an agent writes after each
commit (subject, body, files changed), at the commit's time on the logical
clock. Before a sampled commit is written, its subject and body are asked as
a query; the relevant results are the earlier memories that changed the same
files. Files that more than HUB_SHARE of all commits touch (db.py, cli.py,
the changelog...) say little about a task, so they do not make a memory
relevant. The grade is the number of shared non-hub files, capped at 3.

Deterministic: no randomness; run it and the committed outputs must not change.

    python scenarios/generators/sqlite_utils_history.py
"""
from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "scenarios" / "data" / "sqlite-utils"
NAME = "sqlite-utils-history"
HUB_SHARE = 0.05        # a file touched by more than this share of commits is a hub
FIRST_QUERY = 200       # let some history accumulate before asking
EVERY = 4               # ask at every 4th eligible commit
MAX_QUERIES = 150
BODY_CHARS = 600

TASK_RULES = [  # first matching keyword decides the task slug
    (("fix", "bug", "error", "crash", "broken"), "task:bugfix"),
    (("test",), "task:generate_tests"),
    (("doc", "readme", "typo", "changelog"), "task:explain"),
    (("refactor", "rename", "move", "clean"), "task:refactor"),
    (("faster", "performance", "speed", "optimi"), "task:optimize"),
    (("ci", "workflow", "github actions", "travis"), "task:infra_update"),
    (("bump", "upgrade", "dependency", "require"), "task:dependency_update"),
    (("release",), "task:infra_update"),
]


def task_for(subject: str) -> str:
    s = subject.lower()
    for words, task in TASK_RULES:
        if any(w in s for w in words):
            return task
    return "task:implement_feature"


def contexts_for(paths: list[str]) -> list[str]:
    ctx = set()
    for p in paths:
        if p.startswith("tests/"):
            ctx.add("context:testing")
        elif p.startswith(".github/") or p in (".travis.yml", "codecov.yml", ".readthedocs.yaml"):
            ctx.add("context:devops")
        elif p.startswith("sqlite_utils/"):
            ctx.add("context:api" if p.endswith("cli.py") else "context:data")
    return sorted(ctx)


def category_for(paths: list[str]) -> str:
    if any(p.startswith("sqlite_utils/") for p in paths):
        return "code"
    if any(p.startswith("tests/") for p in paths):
        return "tests"
    if any(p.startswith("docs/") or p.endswith((".md", ".rst")) for p in paths):
        return "docs"
    return "project"


def alias(sha: str) -> str:
    return f"c{sha[:10]}"


def memory_text(c: dict) -> str:
    body = c["body"].strip()[:BODY_CHARS]
    files = ", ".join(f["path"] for f in c["files"])
    return "\n\n".join(x for x in (c["subject"].strip(), body, f"Files changed: {files}") if x)


def query_text(c: dict) -> str:
    body = c["body"].strip()[:BODY_CHARS]
    return f"{c['subject'].strip()}\n\n{body}".strip()


def generate() -> tuple[list[dict], list[tuple[str, str, int]]]:
    commits = [json.loads(x) for x in (DATA / "commits.jsonl").read_text().splitlines() if x.strip()]
    touched = Counter(f["path"] for c in commits for f in c["files"])
    hubs = {p for p, n in touched.items() if n > HUB_SHARE * len(commits)}
    header = {
        "scenario": NAME, "format": 1,
        "description": "Real sqlite-utils history: commits written as memories in time order; later commits' "
                       "subject and body as queries; earlier memories that changed the same (non-hub) files are relevant.",
        "start_time": float(commits[0]["commit_time"]), "oracle": NAME,
        "source": "github.com/simonw/sqlite-utils (Apache-2.0), scenarios/data/sqlite-utils",
        "latency_budget_ms": 50,
        "targets": [{"metric": "ndcg@10", "op": ">=", "value": 0.85, "source": "seed 001 success criteria: search relevance > 85%"}],
    }
    steps: list[dict] = [{"directive": "session", "session_id": "history", "run_id": "replay", "scope": "repo:sqlite-utils"}]
    qrels: list[tuple[str, str, int]] = []
    by_file: dict[str, list[str]] = defaultdict(list)   # non-hub path -> aliases of earlier commits
    clock, eligible, asked = float(commits[0]["commit_time"]), 0, 0
    for i, c in enumerate(commits):
        paths = [f["path"] for f in c["files"]]
        clock = max(clock, float(c["commit_time"]))
        steps.append({"directive": "set_clock", "time": clock})
        grades: Counter[str] = Counter()
        for p in set(paths) - hubs:
            for a in by_file[p]:
                grades[a] += 1
        text = query_text(c)
        if i >= FIRST_QUERY and grades and len(text) >= 20 and asked < MAX_QUERIES:
            eligible += 1
            if eligible % EVERY == 0:
                asked += 1
                qid = f"q{c['sha'][:10]}"
                steps.append({"tool": "memory_search_structured", "args": {"query": text, "top_k": 10},
                              "id": qid, "category": category_for(paths)})
                qrels += [(qid, a, min(g, 3)) for a, g in sorted(grades.items())]
        steps.append({"tool": "memory_write_structured", "as": alias(c["sha"]), "args": {
            "text": memory_text(c), "task": task_for(c["subject"]), "context": contexts_for(paths),
            "tags": sorted({p.split("/")[0] for p in paths})[:8],
            "metadata": {"commit_sha": c["sha"], "files_changed": paths, "git_time": c["commit_time"]}}})
        for p in set(paths) - hubs:
            by_file[p].append(alias(c["sha"]))
    return [header, *steps], qrels


def main() -> int:
    lines, qrels = generate()
    out = ROOT / "scenarios" / f"{NAME}.jsonl"
    out.write_text("".join(json.dumps(x, sort_keys=True) + "\n" for x in lines))
    qdir = ROOT / "oracle_data" / NAME
    qdir.mkdir(parents=True, exist_ok=True)
    (qdir / "qrels.tsv").write_text("query_id\titem_id\tgrade\n" + "".join(f"{q}\t{d}\t{g}\n" for q, d, g in qrels))
    print(f"{out.relative_to(ROOT)}: {len(lines) - 1} steps, {len({q for q, _, _ in qrels})} queries, "
          f"{len(qrels)} judgements", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
