"""`codemem-bench run [SCENARIO...] [--backend NAME] [--out DIR] [--repeat N] [--cluster ADDRESS | --workers N]`."""
from __future__ import annotations

import argparse
from pathlib import Path


NAME = "run"
HELP = "Replay scenarios (default: the default suite) against a backend; print scores, write a report."


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("scenarios", nargs="*", help="scenario names or .jsonl paths (default: the suite)")
    p.add_argument("--backend", default="reference", help="backend spec name[:option] (default: reference)")
    p.add_argument("--suite", default="default", help="suite from scenarios/suites.json (default: default)")
    p.add_argument("--out", type=Path, default=None, help="report folder (default: reports/latest/<backend>)")
    p.add_argument("--keep-data", action="store_true", help="keep each scenario's store under OUT/data")
    p.add_argument("--repeat", type=int, default=1, metavar="N",
                   help="replay the suite N times: quality from the first (all must agree), "
                        "latency as medians over the N (default: 1)")
    p.add_argument("--cluster", default=None, metavar="ADDRESS",
                   help="run the cells (scenario x repetition) on the Dask scheduler at ADDRESS (extra [cluster])")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="run the cells on a new local Dask cluster of N worker processes (extra [cluster])")
    p.add_argument("--quiet", action="store_true", help="no progress lines")


def run(args: argparse.Namespace) -> int:
    from bench.cli.progress import progress_printer
    from bench.run import run_suite
    from bench.scenario.suites import project_root, resolve
    scenarios = resolve(args.scenarios, args.suite)
    if not scenarios:
        print("codemem-bench run: nothing to run")
        return 3
    out = args.out or project_root() / "reports" / "latest" / args.backend.replace(":", "-")
    if args.cluster or args.workers:
        if args.keep_data:
            raise ValueError("--keep-data is for serial runs; it cannot be combined with --cluster/--workers")
        from bench.cluster import open_client, run_suite_cluster
        with open_client(args.cluster, args.workers) as client:
            report = run_suite_cluster(client, args.backend, scenarios, out, args.repeat)
        print(f"cells ran on the cluster; which worker measured what: {out / 'cluster.json'}")
    else:
        report = run_suite(args.backend, scenarios, out, progress_printer(args.quiet), args.keep_data, args.repeat)
    path = report.save(out)
    print(report.to_table())
    print(f"report: {path} (and report.md); telemetry: {out / 'telemetry'}")
    ran = sum(s["steps"]["total"] - s["steps"]["unsupported"] for s in report.scenarios.values())
    return 0 if ran else 3
