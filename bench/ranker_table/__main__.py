"""`python3 -m bench.ranker_table`: run every reference ranker with each embedder on the history tasks; print the table.

    python3 -m bench.ranker_table                        # everything, uncached (MiniLM: hours on 2 cores)
    python3 -m bench.ranker_table --cache .cache/embed   # the same scores, MiniLM rows reused across rankers
    python3 -m bench.ranker_table --embedders hashing-v1 --rankers rrf --scenarios sqlite-utils-blame

Writes OUT/<embedder>/<ranker>/report.json (one `codemem-bench run ... --no-seed-defaults` each), then
OUT/table.md (what it prints: the command, commit and date, nDCG@10, write costs) and OUT/write_cost.json.
The write cost is always measured without the cache (`write_cost.py`).
"""
from __future__ import annotations

import argparse
import json
import shlex
import sys
from datetime import datetime, timezone
from pathlib import Path

from bench.ranker_table.render import cost_table, table
from bench.ranker_table.runs import ROOT, SCENARIOS, covers, run_one
from bench.ranker_table.write_cost import scenario_writes, write_cost
from bench.report.fingerprint import git_commit
from bench.scenario.suites import scenarios_dir
from reference.rankers.registry import DEFAULT_RANKER, RANKERS

EMBEDDERS = ("hashing-v1", "minilm")


def _names(text: str) -> list[str]:
    return [x for x in (s.strip() for s in text.split(",")) if x]


def parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python3 -m bench.ranker_table", description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=ROOT / "reports" / "ranker-table", help="reports folder")
    p.add_argument("--embedders", type=_names, default=list(EMBEDDERS), help="comma-separated (default: both)")
    p.add_argument("--rankers", type=_names, default=list(RANKERS), help="comma-separated (default: all registered)")
    p.add_argument("--scenarios", type=_names, default=list(SCENARIOS), help="comma-separated (default: the 12)")
    p.add_argument("--cache", type=Path, default=None, metavar="DIR",
                   help="opt-in row cache for the runs (CODEMEM_EMBED_CACHE; never for the write cost)")
    p.add_argument("--resume", action="store_true", help="reuse OUT/<embedder>/<ranker> reports that cover the scenarios")
    p.add_argument("--write-cost-memories", type=int, default=200, metavar="N",
                   help="memories per write-cost measurement (0: skip it)")
    p.add_argument("--timeout", type=float, default=6 * 3600, help="seconds per run (default: 6 h)")
    args = p.parse_args(argv)
    unknown = sorted(set(args.rankers) - set(RANKERS))
    if unknown:
        p.error(f"unknown ranker(s) {', '.join(unknown)}; known: {', '.join(RANKERS)}")
    if args.write_cost_memories < 0:
        p.error("--write-cost-memories must be >= 0")
    return args


def main(argv: list[str]) -> int:
    args = parse(argv)
    command = "python3 -m bench.ranker_table " + shlex.join(argv) if argv else "python3 -m bench.ranker_table"
    commit, started = git_commit(ROOT), datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    reports, took = {}, {}
    for embedder in args.embedders:
        for ranker in args.rankers:
            out = args.out / embedder / ranker
            if not (args.resume and covers(out, args.scenarios)):
                took[(embedder, ranker)] = run_one(embedder, ranker, args.scenarios, out, args.cache, args.timeout,
                                                   log=lambda m: print(m, file=sys.stderr, flush=True))
            reports[(embedder, ranker)] = json.loads((out / "report.json").read_text())
    costs = []
    if args.write_cost_memories:
        records = scenario_writes(scenarios_dir() / "sqlite-utils-history.jsonl", args.write_cost_memories)
        costs = [write_cost(e, records) for e in args.embedders]
        (args.out / "write_cost.json").write_text(json.dumps(costs, indent=1) + "\n")
    text = "\n".join([
        f"Command: `{command}` (PYTHONPATH=. from the project root); commit {commit}; started {started}.",
        f"Each cell: `codemem-bench run <scenario> --backend reference:<ranker> --no-seed-defaults` with "
        f"`CODEMEM_EMBEDDER=<embedder>`{'; rows from the opt-in cache ' + str(args.cache) if args.cache else ''}. "
        f"nDCG@10; recency and BM25 are the harness's baselines (the same for every cell of a row).",
        "", table(reports, args.embedders, args.rankers, DEFAULT_RANKER), "",
        *([f"Write cost per memory, uncached, fresh store, the first {args.write_cost_memories} memories of "
           f"sqlite-utils-history:", "", cost_table(costs), ""] if costs else []),
        "Run wall times (s): " + ", ".join(f"{e}/{r} {s:.0f}" for (e, r), s in took.items()) if took else
        "All runs reused (--resume).",
        "Reports' commits: " + ", ".join(f"{e}/{r} {rep.get('environment', {}).get('commit', '?')[:12]}"
                                         for (e, r), rep in reports.items()),
    ])
    (args.out / "table.md").write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
