"""`codemem-bench compare --backends A,B,... [--reference A] [--out DIR] [--repeat N] [SCENARIO...]`."""
from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path


NAME = "compare"
HELP = ("Run several backends on the same scenarios and compare them side by side, with paired "
        "significance tests against a reference backend; writes comparison.json/.md, pareto.png, TREC files.")


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("scenarios", nargs="*", help="scenario names or .jsonl paths (default: the suite)")
    p.add_argument("--backends", required=True, help="comma-separated backend specs, e.g. reference,reference:memory-lane")
    p.add_argument("--reference", default=None, help="the backend the others are tested against (default: the first)")
    p.add_argument("--suite", default="default", help="suite from scenarios/suites.json (default: default)")
    p.add_argument("--skip", action="append", default=[], metavar="NAME",
                   help="leave this scenario out (repeatable; it must be one of those to run)")
    p.add_argument("--out", type=Path, default=None, help="output folder (default: reports/latest/compare)")
    p.add_argument("--repeat", type=int, default=1, metavar="N",
                   help="repetitions per backend, interleaved; latency figures are medians (default: 1)")
    p.add_argument("--seed", type=int, default=0, help="seed of the randomisation test (default: 0)")
    p.add_argument("--permutations", type=int, default=10_000,
                   help="random sign flips when the test cannot enumerate them all (default: 10000)")
    p.add_argument("--alpha", type=float, default=0.05, help="significance level after Holm (default: 0.05)")
    p.add_argument("--agents", type=int, default=0, metavar="N",
                   help="also run the concurrent-agents census (N agents, 20 writes each) per backend and "
                        "report lost writes (default: 0, off)")
    p.add_argument("--cluster", default=None, metavar="ADDRESS",
                   help="run the cells (backend x scenario x repetition) on the Dask scheduler at ADDRESS")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="run the cells on a new local Dask cluster of N worker processes (extra [cluster])")
    p.add_argument("--queries", type=int, default=None, metavar="N",
                   help="a bounded tier: cut every scenario after its N-th judged query, the same cut for every "
                        "backend (bench/scenario/cut.py; default: no cut)")
    p.add_argument("--quiet", action="store_true", help="no progress lines")


def run(args: argparse.Namespace) -> int:
    started, load = time.perf_counter(), [os.getloadavg()[0]]
    from bench.cli.progress import progress_printer
    from bench.compare import TestSettings, build_comparison, run_backends, significant_losses, to_table, write_outputs
    from bench.compare import side_by_side
    from bench.compare.runner import slug
    from bench.scenario.cut import cut_all
    from bench.scenario.home import reports_dir
    from bench.scenario.suites import resolve
    specs = [s.strip() for s in args.backends.split(",") if s.strip()]
    reference = args.reference or (specs[0] if specs else None)
    if reference is None:
        raise ValueError("--backends names no backend")
    if reference not in specs:
        specs.insert(0, reference)
    if not 0 < args.alpha < 1:
        raise ValueError(f"--alpha must be between 0 and 1, got {args.alpha}")
    scenarios = cut_all(resolve(args.scenarios, args.suite, args.skip), args.queries)
    if not scenarios:
        print("codemem-bench compare: nothing to run")
        return 3
    out = args.out or reports_dir() / "latest" / "compare"
    if args.cluster or args.workers:
        from bench.cluster import open_client, run_backends_cluster
        with open_client(args.cluster, args.workers) as client:
            reports = run_backends_cluster(client, specs, scenarios, out, args.repeat)
        print(f"cells ran on the cluster; which worker measured what: {out / 'cluster.json'}")
    else:
        reports = run_backends(specs, scenarios, out, args.repeat,
                               progress_printer(args.quiet, plan=[len(s.steps) for s in scenarios] * args.repeat
                                                * len(specs), groups=[("scenario", len(scenarios))] * args.repeat
                                                * len(specs)))
    if args.queries is not None:
        for r in reports.values():   # the tier is part of what the figures mean: said in every report
            r.environment["cut"] = {"queries": args.queries}
            r.save(out / slug(r.backend))
    comparison = build_comparison(reports, reference, TestSettings(args.seed, args.permutations, args.alpha))
    write_outputs(comparison, reports, scenarios, out)
    agents = _agents(specs, args.agents, out) if args.agents else None
    rows = side_by_side.side_by_side(reports, agents) + side_by_side.baseline_rows(reports)
    table = side_by_side.to_markdown(rows, comparison["environment"])
    (out / "side_by_side.md").write_text(table, encoding="utf-8")
    load.append(os.getloadavg()[0])
    doc = side_by_side.readme_doc(rows, comparison["environment"], command=_command(args, specs), suite=args.suite,
                                  agents=args.agents, minutes=(time.perf_counter() - started) / 60, cut=args.queries,
                                  load=load)
    (out / "side_by_side.json").write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(to_table(comparison))
    print("\nside by side:\n" + table)
    for b, losses in significant_losses(comparison).items():
        print(f"{b} is significantly worse than {reference} on: {', '.join(losses)}")
    print(f"comparison: {out / 'comparison.json'} (and comparison.md, side_by_side.md, pareto.png, trec/); "
          f"per-backend reports under {out}")
    ran = sum(s["steps"]["total"] - s["steps"]["unsupported"] for r in reports.values() for s in r.scenarios.values())
    return 0 if ran else 3


def _command(args: argparse.Namespace, specs: list[str]) -> str:
    """The command line of this run as a reader would retype it (the README states it beside the table)."""
    parts = ["codemem-bench compare", *args.scenarios, f"--backends {','.join(specs)}"]
    if not args.scenarios:
        parts.append(f"--suite {args.suite}")
    parts.extend(f"--skip {name}" for name in args.skip)
    for flag, value, default in (("--queries", args.queries, None), ("--agents", args.agents, 0),
                                 ("--repeat", args.repeat, 1), ("--workers", args.workers, None)):
        if value != default:
            parts.append(f"{flag} {value}")
    return " ".join(parts)


def _agents(specs: list[str], n: int, out: Path) -> dict[str, dict]:
    """The concurrent-agents census of each backend (`codemem-bench agents`), by spec."""
    from bench.concurrency.census import run_agents
    if not 1 <= n <= 64:
        raise ValueError(f"--agents must be between 1 and 64, got {n}")
    out_of = {}
    for s in specs:
        try:
            out_of[s] = run_agents(s, out / "agents" / s.replace(":", "-"), n, 20)
        except Exception as exc:  # noqa: BLE001 - e.g. a store one process locks: said in the table, not fatal
            out_of[s] = {"backend": s, "agents": n, "error": f"{type(exc).__name__}: {str(exc)[:300]}"}
            print(f"codemem-bench compare: the {n}-agent census of {s} did not run: {out_of[s]['error']}")
    return out_of
