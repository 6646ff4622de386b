"""`codemem-bench gate REPORT [--baseline BASELINE] [--latency SPEC ...] [...]`."""
from __future__ import annotations

import argparse
import json
from pathlib import Path


NAME = "gate"
HELP = ("Compare a report with a committed baseline, or run a commit and the working tree side by side "
        "(--against REV); exit 1 on a quality or latency regression (0 pass, 2 bad input, 3 nothing ran); "
        "latency only between reports of one same-job run.")


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("report", type=Path, nargs="?", default=None,
                   help="report.json of the run to gate (or its folder); omit with --against")
    p.add_argument("--against", metavar="REV", default=None,
                   help="the same-job recipe: run commit REV (exported with git archive) and the working tree "
                        "alternately on this machine, then gate the tree against REV, latency included")
    p.add_argument("--suite", default="small", help="with --against: the suite to run (default: small)")
    p.add_argument("--scenarios", default=None, metavar="A,B",
                   help="with --against: run these scenarios instead of the suite")
    p.add_argument("--backend", default="reference", help="with --against: the backend (default: reference)")
    p.add_argument("--repeat", type=int, default=3, help="with --against: `run --repeat` of each run (default: 3)")
    p.add_argument("--rounds", type=int, default=2,
                   help="with --against: alternating runs of each side, pooled (default: 2)")
    p.add_argument("--out", type=Path, default=None,
                   help="with --against: where both sides' reports go (default: reports/latest/against)")
    p.add_argument("--baseline", type=Path, default=None,
                   help="baseline report.json or folder (default: reports/baseline/<backend>/)")
    p.add_argument("--min-effect", type=float, default=None,
                   help="smallest drop of a quality mean that counts (absolute, default: 0.01, or the "
                        "tolerance the backend's MCP adapter declares in [gate])")
    p.add_argument("--alpha", type=float, default=0.05, help="significance level after Holm (default: 0.05)")
    p.add_argument("--latency", action="append", default=None, metavar="SPEC",
                   help="latency threshold [GROUP.]STAT:REL%%[:ABS], repeatable or comma-separated, "
                        "e.g. reads.p10:100%%:2ms or queries.p50:10%%:2ms; 'off' disables latency gating "
                        "(default: reads.p10:100%%:2ms, writes.p10:300%%:10ms, each step type on its own; "
                        "latency is gated only between reports made on the same machine)")
    p.add_argument("--quality", choices=("on", "off"), default="on",
                   help="'off' gates latency alone, e.g. in `--against` when the committed baseline gates quality")
    p.add_argument("--metrics", default=None,
                   help="comma-separated quality metrics to gate (default: every one in the report)")
    p.add_argument("--seed", type=int, default=0, help="seed of the randomisation test (default: 0)")
    p.add_argument("--permutations", type=int, default=10_000, help="random sign flips (default: 10000)")
    p.add_argument("--json", type=Path, default=None, help="also write the findings to this JSON file")
    p.add_argument("--verbose", action="store_true", help="also print the metrics that passed")


def run(args: argparse.Namespace) -> int:
    from bench.backends.mcp.gate_policy import adapter_gate
    from bench.compare.runner import slug
    from bench.gate import GateOptions, parse_latency, run_gate
    from bench.report import Report
    from bench.scenario.home import reports_dir
    if args.against:
        if args.report is not None or args.baseline is not None:
            raise ValueError("--against REV runs both sides itself: give neither REPORT nor --baseline")
        from bench.gate.against import run_against
        from bench.scenario.home import project_root
        out = args.out or reports_dir() / "latest" / "against"
        names = [n.strip() for n in args.scenarios.split(",") if n.strip()] if args.scenarios else []
        run_args = [*names, "--suite", args.suite, "--backend", args.backend, "--repeat", str(args.repeat)]
        baseline, report, sha = run_against(project_root(), args.against, run_args, out, args.rounds)
        base_path = f"{args.against} ({sha[:12]}), run in this job: {out}"
    else:
        if args.report is None:
            raise ValueError("give REPORT (a report.json or its folder), or --against REV")
        report = Report.load(args.report)
        base_path = args.baseline or reports_dir() / "baseline" / slug(report.backend)
        baseline = Report.load(base_path)
    policy = adapter_gate(report.backend)   # a nondeterministic server's measured tolerance
    min_effect = args.min_effect if args.min_effect is not None else policy.min_effect if policy else 0.01
    latency = parse_latency(args.latency) if args.latency or not policy or policy.latency else ()
    if policy:
        given = args.min_effect is not None or bool(args.latency)
        print(f"note * gate: {policy.note()}" + ("; options given on the command line win" if given else ""))
    options = GateOptions(min_effect=min_effect, alpha=args.alpha, latency=latency,
                          metrics=tuple(m.strip() for m in args.metrics.split(",")) if args.metrics else None,
                          seed=args.seed, permutations=args.permutations, quality=args.quality == "on")
    result = run_gate(report, baseline, options)
    for f in result.findings:
        if f.kind != "ok" or args.verbose:
            print(f.line())
    if args.json:
        args.json.write_text(json.dumps(result.to_dict(), indent=2) + "\n")
    gated = sum(f.kind != "note" for f in result.findings)
    if result.nothing_ran:
        print("gate: NOTHING RAN")
    elif result.regressions:
        names = ", ".join(f"{f.scenario} {f.metric}" for f in result.regressions)
        print(f"gate: FAIL - {len(result.regressions)} regression(s) of {gated} figures gated: {names}")
    else:
        print(f"gate: PASS - {gated} figures gated against {base_path}")
    return result.exit_code
