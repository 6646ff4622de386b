"""Generate `knowledge-history` (scored) and `knowledge-history-calibration` from real histories.

Seed 001's knowledge layer on real commits of every dataset folder given
(default: scenarios/data/{sqlite-utils,httpx,attrs}), same rules and
parameters for all (scenarios/README.md, "Knowledge truth from real history"):

- memories: the commits that take part in a planted pair, written in commit
  order with the clock at each commit's time (`memory_write_structured`);
- `updates`: a revert and the commit it reverts; a commit that rewrites
  at least half of what an earlier one added (blame.jsonl);
- `relates_to`: consecutive commits naming the same function in their hunk
  headers (not an update); `none`: two commits of one history that share no
  file and no function and no blame line;
- entities of every memory: history_facts.entities;
- searches: before each memory is written whose commit changes lines that
  an earlier memory last wrote (blame.jsonl), its subject and body as an
  `oracle_search`, judged by blame: those earlier memories (grade 2 for 10
  lines or more, else 1).

Calibration split: a pair whose newer commit is a calibration commit (index
% 10 == 0 in commits.jsonl) goes to the calibration scenario; the scored
scenario holds no calibration commit at all.

    python scenarios/generators/knowledge_history.py [DATA_DIR ...]
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from history_facts import (  # noqa: E402
    entities, functions, is_calibration, load, memory_text, reverts, rewrites, shared_functions)

ROOT = Path(__file__).resolve().parents[2]
NAME = "knowledge-history"
SEED = 1301
PAIRS_PER_TYPE = 20          # per dataset and split: updates, relates_to, none (>= 100 scored searches in all)
DEFAULT_DATA = [ROOT / "scenarios" / "data" / r for r in ("sqlite-utils", "httpx", "attrs")]


def spread(items: list, k: int) -> list:
    """`k` items evenly spaced over `items` (all of them when there are no more than `k`)."""
    if len(items) <= k:
        return list(items)
    return [items[i * len(items) // k] for i in range(k)]


def select(commits: list[dict], blame: dict, calibration: bool, rng: random.Random) -> list[tuple[dict, dict, str]]:
    """The planted (newer, older, type) pairs of one dataset and split."""
    ok = {c["sha"] for c in commits if len(c["parents"]) == 1 and c["patch"]}

    def in_split(a: dict, b: dict) -> bool:
        # scored: neither commit is a calibration commit; calibration: the newer one is
        return is_calibration(a) if calibration else not (is_calibration(a) or is_calibration(b))

    def keep(pairs):
        pairs = [(a, b) for a, b in pairs if a["sha"] in ok and b["sha"] in ok and in_split(a, b)]
        return sorted(dict(((a["sha"], b["sha"]), (a, b)) for a, b in pairs).values(), key=lambda p: p[0]["index"])
    undone = keep(reverts(commits))[:PAIRS_PER_TYPE]          # every revert first, then rewrites spread out
    undone_keys = {(a["sha"], b["sha"]) for a, b in undone}
    rewritten = [(a, b) for a, b in keep(rewrites(commits, blame)) if (a["sha"], b["sha"]) not in undone_keys]
    updates = undone + spread(rewritten, PAIRS_PER_TYPE - len(undone))
    update_keys = undone_keys | {(a["sha"], b["sha"]) for a, b in rewritten}
    origins = {c["sha"]: set((blame.get(c["sha"]) or {}).get("origins") or {}) for c in commits}
    relates = [(a, b) for a, b in keep(shared_functions(commits)) if (a["sha"], b["sha"]) not in update_keys]
    chosen = [(a, b, "updates") for a, b in updates]
    chosen += [(a, b, "relates_to") for a, b in spread(relates, PAIRS_PER_TYPE)]
    members = sorted({c["sha"]: c for a, b, _ in chosen for c in (a, b)}.values(), key=lambda c: c["index"])
    files = {c["sha"]: {f["path"] for f in c["files"]} for c in members}
    funcs = {c["sha"]: {n for _, n in functions(c)} for c in members}
    cands = [(a, b) for a in members for b in members if b["index"] < a["index"] and in_split(a, b)
             and not files[a["sha"]] & files[b["sha"]] and not funcs[a["sha"]] & funcs[b["sha"]]
             and b["sha"] not in origins[a["sha"]] and a["sha"] not in origins[b["sha"]]]
    chosen += [(a, b, "none") for a, b in rng.sample(cands, min(PAIRS_PER_TYPE, len(cands)))]
    return chosen


def alias(repo: str, c: dict) -> str:
    return f"{repo.replace('-', '_')}_{c['sha'][:10]}"


def build(data_dirs: list[Path], calibration: bool) -> tuple[list[dict], dict]:
    """(scenario lines, truth) of the given data folders; a folder's name is its repository's alias prefix."""
    names = [d.name for d in data_dirs]
    clash = sorted({n for n in names if names.count(n) > 1})
    if clash:   # their memories and blame would merge under one prefix
        raise ValueError(f"data folders must have distinct names (the alias prefix): {', '.join(clash)} given twice; "
                         "copy or link them under distinct names")
    rng = random.Random(SEED + calibration)
    memories: dict[str, tuple[float, str, dict]] = {}
    relationships = []
    blames = {}
    for d in data_dirs:
        repo = d.name
        commits, blame = load(d)
        for a, b, t in select(commits, blame, calibration, rng):
            for c in (a, b):
                memories[alias(repo, c)] = (c["commit_time"], repo, c)
            relationships.append({"source": alias(repo, a), "target": alias(repo, b), "type": t})
        blames[repo] = blame
    order = sorted(memories, key=lambda k: (memories[k][0], k))
    name = NAME + ("-calibration" if calibration else "")
    steps: list[dict] = [{"directive": "session", "session_id": "history", "run_id": name, "scope": "repo:mixed"}]
    written: set[str] = set()
    searches = []
    for k in order:
        t, repo, c = memories[k]
        steps.append({"directive": "set_clock", "time": t})
        origins = (blames[repo].get(c["sha"]) or {}).get("origins") or {}
        rel = {alias(repo, {"sha": o}): 2 if n >= 10 else 1 for o, n in sorted(origins.items())
               if alias(repo, {"sha": o}) in written}
        if rel:
            args = {"query": (c["subject"] + " " + c["body"][:200]).strip(), "limit": 10}
            steps.append({"tool": "oracle_search", "args": args, "id": f"q_{k}", "category": "blame",
                          "expect": {"relevant": rel, "k": 10}})
            searches.append({"id": f"q_{k}", "args": args, "relevant": rel})
        steps.append({"tool": "memory_write_structured", "as": k, "args": {"text": memory_text(c)}})
        written.add(k)
    steps.append({"directive": "score_knowledge", "truth": f"../oracle_data/{name}/truth.json"})
    truth = {"format": 1, "entities": {k: entities(memories[k][2]) for k in order},
             "relationships": relationships, "searches": searches}
    header = {"scenario": name, "format": 1, "start_time": memories[order[0]][0] - 60, "oracle": None,
              "latency_budget_ms": 50,
              "description": ("Seed 001 knowledge layer on real commits: entities, updates (reverts, rewrites), "
                              "relates_to (same function), none pairs and blame-judged searches"
                              + (" - CALIBRATION split (commit index % 10 == 0), never scored" if calibration
                                 else " (calibration commits excluded)")),
              "source": "generated by scenarios/generators/knowledge_history.py from " + ", ".join(
                  d.name for d in data_dirs) + " (scenarios/data/*, with attribution there)",
              "targets": [] if calibration else [
                  {"metric": "entity_f1", "op": ">", "value": 0.8,
                   "source": "seed 001 success criteria: entity extraction accuracy > 80%"},
                  {"metric": "relationship_accuracy", "op": ">", "value": 0.7,
                   "source": "seed 001 success criteria: relationship detection > 70%"}]}
    return [header, *steps], truth


def render(lines: list[dict]) -> str:
    return "".join(json.dumps(x, sort_keys=True) + "\n" for x in lines)


def main(argv: list[str]) -> int:
    dirs = [Path(a) for a in argv] or DEFAULT_DATA
    for calibration in (False, True):
        try:
            lines, truth = build(dirs, calibration)
        except ValueError as e:
            print(f"knowledge_history: {e}", file=sys.stderr)
            return 2
        name = lines[0]["scenario"]
        (ROOT / "scenarios" / f"{name}.jsonl").write_text(render(lines))
        tdir = ROOT / "oracle_data" / name
        tdir.mkdir(parents=True, exist_ok=True)
        (tdir / "truth.json").write_text(json.dumps(truth, indent=1, sort_keys=True) + "\n")
        kinds = [r["type"] for r in truth["relationships"]]
        print(f"scenarios/{name}.jsonl: {len(truth['entities'])} memories, "
              f"{ {t: kinds.count(t) for t in sorted(set(kinds))} }, {len(truth['searches'])} searches", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
