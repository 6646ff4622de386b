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
    p.add_argument("--skip", action="append", default=[], metavar="NAME",
                   help="leave this scenario out (repeatable; it must be one of those to run)")
    p.add_argument("--out", type=Path, default=None,
                   help="report folder (default: a new reports/runs/<time>-<backend>/, linked as reports/latest/<backend>)")
    p.add_argument("--keep-data", action="store_true", help="keep each scenario's store under OUT/data")
    p.add_argument("--repeat", type=int, default=1, metavar="N",
                   help="replay the suite N times: quality from the first (all must agree), "
                        "latency as medians over the N (default: 1)")
    p.add_argument("--cluster", default=None, metavar="ADDRESS",
                   help="run the cells (scenario x repetition) on the Dask scheduler at ADDRESS (extra [cluster])")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="run the cells on a new local Dask cluster of N worker processes (extra [cluster])")
    p.add_argument("--queries", type=int, default=None, metavar="N",
                   help="a bounded tier: cut every scenario after its N-th judged query (bench/scenario/cut.py; "
                        "default: no cut)")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.add_argument("--job", default=None, metavar="ID",
                   help="name the same-job run this report belongs to (default: $CODEMEM_BENCH_JOB); `gate` "
                        "compares latency only between reports of one job (bench/gate/README.md)")
    p.add_argument("--save", metavar="NAME", help="also keep this run under reports/history/NAME/")
    p.add_argument("--compare", metavar="NAME", help="show each figure's change against saved run NAME")
    p.add_argument("--no-seed-defaults", action="store_true",
                   help="reference backend: skip the replay of the scenarios its fitted constants affect "
                        "at the seeds' values (shown beside the tuned figures; bench/seed_defaults.py)")


def run(args: argparse.Namespace) -> int:
    saved = _saved_run(args)  # a bad --save/--compare name fails before the run, not after
    from bench.cli.progress import progress_printer
    from bench.run import run_suite
    from bench.report import runs
    from bench.scenario.home import reports_dir
    from bench.scenario.cut import cut_all
    from bench.scenario.suites import resolve
    from bench.seed_defaults import planned, run_seed_defaults
    scenarios = cut_all(resolve(args.scenarios, args.suite, args.skip), args.queries)
    if not scenarios:
        print("codemem-bench run: nothing to run")
        return 3
    reports = reports_dir()
    # kept runs before this one, for report.html's trend; a run with --out is not kept and shows no trend
    earlier = runs.history(reports, args.backend) if args.out is None else []
    out = args.out or runs.new_run_dir(reports, args.backend)   # the folder's name is the only wall-clock use
    seed_plan = [] if args.no_seed_defaults else planned(scenarios, args.backend)
    progress = progress_printer(args.quiet, plan=[len(s.steps) for s in scenarios] * args.repeat
                                + [len(s.steps) for s in seed_plan],
                                groups=[("scenario", len(scenarios))] * args.repeat
                                + ([("seed defaults", len(seed_plan))] if seed_plan else []))
    if args.cluster or args.workers:
        if args.keep_data:
            raise ValueError("--keep-data is for serial runs; it cannot be combined with --cluster/--workers")
        from bench.cluster import open_client, run_suite_cluster
        with open_client(args.cluster, args.workers) as client:
            report = run_suite_cluster(client, args.backend, scenarios, out, args.repeat)
        print(f"cells ran on the cluster; which worker measured what: {out / 'cluster.json'}")
    else:
        report = run_suite(args.backend, scenarios, out, progress, args.keep_data, args.repeat)
    if args.job:
        report.environment["job"] = args.job
    if args.queries is not None:
        report.environment["cut"] = {"queries": args.queries}
    if seed_plan:
        run_seed_defaults(report, seed_plan, out / "seed-defaults", progress)
    path = report.save(out, earlier)
    print(report.to_table())
    print(f"report: {path} (and report.md, report.html); telemetry: {out / 'telemetry'}")
    if args.out is None:
        print(f"latest: {runs.point_latest(reports, args.backend, out)} -> {out}")
    _history(args, report, out, saved, earlier)
    ran = sum(s["steps"]["total"] - s["steps"]["unsupported"] for s in report.scenarios.values())
    return 0 if ran else 3


def _saved_run(args: argparse.Namespace) -> dict | None:
    """The report.json of `--compare NAME` (None without it), after checking the `--save` name."""
    from bench.report import history
    if args.save:
        history.check_name(args.save)
    return history.load_saved(args.compare) if args.compare else None


def _history(args: argparse.Namespace, report, out: Path, saved: dict | None, earlier: list) -> None:
    """`--compare`: print the changes and put them in report.html; then `--save` the run."""
    from bench.report import history
    from bench.report.html import write_html
    from bench.report.report import trend_points
    if saved is not None:
        data = report.to_dict()
        changes = history.changes(data, saved)
        write_html(out, data, changes, args.compare, trend_points(out, data, earlier))
        print(history.changes_table(changes, args.compare))
        print(f"paired significance tests: codemem-bench gate {out} --baseline {history.history_root() / args.compare}")
    if args.save:
        print(f"saved as {args.save!r}: {history.save_run(out, args.save)}")
