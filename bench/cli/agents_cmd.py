"""`codemem-bench agents`: N concurrent agent sessions write to one shared store; count lost writes."""
from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

NAME = "agents"
HELP = ("Concurrent agents: N processes (for an MCP backend, N server processes) write to one shared store at "
        "once; then a census counts acknowledged writes that are lost or duplicated.")


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--backends", default="reference", help="comma-separated backend specs (default: reference)")
    p.add_argument("--agents", default="2,4,8", help="comma-separated agent counts (default: 2,4,8)")
    p.add_argument("--writes", type=int, default=25, help="writes per agent (default: 25)")
    p.add_argument("--out", type=Path, default=Path("reports/latest/agents"),
                   help="folder for agents.json, agents.md and the stores (default: reports/latest/agents)")


def table(rows: list[dict]) -> str:
    head = "| backend | agents | writes | acknowledged | lost | duplicated | refused | readable | wall s |\n"
    head += "|---|---|---|---|---|---|---|---|---|\n"
    return head + "".join(
        f"| {r['backend']} | {r['agents']} | {r['writes']} | {r['acknowledged']} | "
        f"{r['lost'] if not r.get('unverifiable') else 'unverifiable'} | {r['duplicated']} | {r['refused']} | "
        f"{'yes' if r['readable'] else 'NO'} | {r['wall_s']} |\n" for r in rows)


def run(args: argparse.Namespace) -> int:
    from bench.concurrency.census import run_agents

    counts = [int(n) for n in args.agents.split(",") if n.strip()]
    if args.writes < 1 or not counts or min(counts) < 1 or max(counts) > 64:
        raise ValueError("--writes must be >= 1 and --agents counts between 1 and 64")
    rows = []
    for spec in [s.strip() for s in args.backends.split(",") if s.strip()]:
        for n in counts:
            work = args.out / "stores" / f"{spec.replace(':', '_')}-{n}"
            shutil.rmtree(work, ignore_errors=True)
            row = run_agents(spec, work, n, args.writes)
            rows.append(row)
            print(f"{spec:24} agents={n:<2} acknowledged={row['acknowledged']:<4} lost={row['lost']:<4} "
                  f"duplicated={row['duplicated']:<3} readable={'yes' if row['readable'] else 'NO'}", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "agents.json").write_text(json.dumps(rows, indent=2) + "\n")
    (args.out / "agents.md").write_text("# Concurrent agents\n\n" + table(rows))
    return 1 if any(r["lost"] or r["duplicated"] or not r["readable"] for r in rows) else 0
