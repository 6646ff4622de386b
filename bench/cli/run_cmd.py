"""`codemem-bench run [SCENARIO...] [--backend NAME] [--out DIR] [--repeat N] [--save NAME] [--compare NAME]`."""
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
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.add_argument("--save", metavar="NAME", help="also keep this run under reports/history/NAME/")
    p.add_argument("--compare", metavar="NAME", help="show each figure's change against saved run NAME")


def run(args: argparse.Namespace) -> int:
    from bench.cli.progress import progress_printer
    from bench.report import history
    from bench.run import run_suite
    from bench.scenario.suites import project_root, resolve
    scenarios = resolve(args.scenarios, args.suite)
    if not scenarios:
        print("codemem-bench run: nothing to run")
        return 3
    out = args.out or project_root() / "reports" / "latest" / args.backend.replace(":", "-")
    saved = history.load_saved(args.compare) if args.compare else None  # fail before the run, not after
    if args.save:
        history.check_name(args.save)
    report = run_suite(args.backend, scenarios, out, progress_printer(args.quiet), args.keep_data, args.repeat)
    changes = history.changes(report.to_dict(), saved) if saved is not None else None
    path = report.save(out, changes, args.compare)
    print(report.to_table())
    if changes is not None:
        print(history.changes_table(changes, args.compare))
        print(f"paired significance tests: codemem-bench gate {out} --baseline {history.history_root() / args.compare}")
    print(f"report: {path} (and report.md, report.html); telemetry: {out / 'telemetry'}")
    if args.save:
        print(f"saved as {args.save!r}: {history.save_run(out, args.save)}")
    ran = sum(s["steps"]["total"] - s["steps"]["unsupported"] for s in report.scenarios.values())
    return 0 if ran else 3
