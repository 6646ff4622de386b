"""Measure the latency gate on this machine: false alarms of unchanged code, catches of a planted delay.

    python3 -m bench.gate.calibrate [--runs 5] [--repeat 3] [--delay-ms 5] [--suite small] [--out DIR]

Runs the suite `--runs` times with the unchanged reference backend and as many times with
the reference plus `--delay-ms` of sleep before every search (`planted_delay`), the two
interleaved (unchanged 1, delayed 1, unchanged 2, ...) so that both see the same drift of
the machine. Then it gates every pair of unchanged runs (runs=5 gives 10 gates; an alarm
is any regression, quality or latency) and every delayed run against every unchanged run
(a catch is a latency regression on a search step). Prints the figures and writes
`calibration.json` in the output folder. Procedure and results: bench/gate/README.md.
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from bench.backends.registry import register_backend, unregister_backend
from bench.gate.gate import GateOptions, run_gate
from bench.gate.latency_spec import parse_latency
from bench.gate.planted_delay import SEARCH_METHODS, delayed_search
from bench.report import Report
from bench.run import run_suite
from bench.scenario.model import Scenario
from bench.scenario.suites import resolve

DELAYED = "delayed-search"
# step types whose handler calls one of SEARCH_METHODS (the steps the planted delay slows)
SEARCH_STEPS = ("memory_search", "memory_search_structured", "jit_search", "code_search", "symbol_search",
                "oracle_search", "memory-lane_find", "memory-lane_inject", "project_memory_search",
                "project_locate_files")


def _load() -> float | None:
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def run_interleaved(scenarios: list[Scenario], out: Path, runs: int, repeat: int, delay_ms: float,
                    log: Any = print) -> tuple[list[Path], list[Path], list[dict[str, Any]]]:
    """Unchanged and delayed runs, alternating; their report folders and when each ran."""
    register_backend(DELAYED, delayed_search(delay_ms))
    unchanged, delayed, timeline = [], [], []
    job = f"calibrate-{uuid.uuid4().hex[:12]}"   # one same-job run: the gate compares their latency
    try:
        for i in range(runs):
            for backend, folder in (("reference", unchanged), (DELAYED, delayed)):
                path = out / f"{'unchanged' if backend == 'reference' else 'delayed'}-{i + 1}"
                start = time.monotonic()
                report = run_suite(backend, scenarios, path, repeat=repeat)
                report.environment["job"] = job
                report.save(path)
                folder.append(path)
                timeline.append({"run": path.name, "seconds": round(time.monotonic() - start, 1),
                                 "load_after": _load()})
                log(f"  {path.name}: {timeline[-1]['seconds']} s, load average {timeline[-1]['load_after']}")
    finally:
        unregister_backend(DELAYED)
    return unchanged, delayed, timeline


def _gate(report: Path, baseline: Path, options: GateOptions) -> dict[str, Any]:
    result = run_gate(Report.load(report), Report.load(baseline), options)
    regs = result.regressions
    on_search = [f for f in regs if f.metric.startswith("latency.") and f.metric.split(".")[1] in SEARCH_STEPS]
    return {"report": report.name, "baseline": baseline.name, "exit_code": result.exit_code,
            "regressions": [f.line() for f in regs], "search_regressions": len(on_search),
            "other_regressions": len(regs) - len(on_search)}


def calibrate(unchanged: list[Path], delayed: list[Path], options: GateOptions) -> dict[str, Any]:
    """Gate every pair of unchanged runs and every delayed run against every unchanged one."""
    false = [_gate(b, a, options) for a, b in itertools.combinations(unchanged, 2)]
    caught = [_gate(d, u, options) for d in delayed for u in unchanged]
    return {"false_alarm_gates": len(false), "false_alarms": sum(g["exit_code"] != 0 for g in false),
            "delay_gates": len(caught), "delay_caught": sum(g["search_regressions"] > 0 for g in caught),
            "delay_gates_with_other_regressions": sum(g["other_regressions"] > 0 for g in caught),
            "gates": {"unchanged_pairs": false, "delayed_vs_unchanged": caught}}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python3 -m bench.gate.calibrate", description=__doc__.split("\n\n")[0])
    p.add_argument("scenarios", nargs="*", help="scenario names (default: the suite)")
    p.add_argument("--suite", default="small", help="suite from scenarios/suites.json (default: small)")
    p.add_argument("--runs", type=int, default=5, help="runs of each kind; unchanged pairs = runs*(runs-1)/2 "
                   "(default: 5, i.e. 10 gates)")
    p.add_argument("--repeat", type=int, default=3, help="`run --repeat` of each run (default: 3)")
    p.add_argument("--delay-ms", type=float, default=5.0, help="planted delay per search (default: 5)")
    p.add_argument("--latency", action="append", default=None, metavar="SPEC",
                   help="latency thresholds to calibrate, as for `gate` (default: the gate's default)")
    p.add_argument("--out", type=Path, default=Path("reports/latest/calibrate"), help="output folder")
    p.add_argument("--reuse", action="store_true",
                   help="gate the runs already in --out (e.g. with other --latency thresholds) instead of running")
    args = p.parse_args(argv)
    if args.runs < 2:
        p.error("--runs must be at least 2 (a pair of unchanged runs)")
    scenarios = resolve(args.scenarios, args.suite)
    options = GateOptions(latency=parse_latency(args.latency))
    print(f"calibrating the latency gate ({', '.join(map(str, options.latency))}) on {os.cpu_count()} CPUs, "
          f"load average {_load()}: {args.runs} unchanged and {args.runs} delayed (+{args.delay_ms:g} ms per "
          f"search: {', '.join(SEARCH_METHODS)}) runs of {len(scenarios)} scenarios, --repeat {args.repeat}")
    if args.reuse:
        unchanged = [args.out / f"unchanged-{i + 1}" for i in range(args.runs)]
        delayed = [args.out / f"delayed-{i + 1}" for i in range(args.runs)]
        timeline = json.loads((args.out / "calibration.json").read_text())["timeline"] \
            if (args.out / "calibration.json").exists() else []
    else:
        unchanged, delayed, timeline = run_interleaved(scenarios, args.out, args.runs, args.repeat, args.delay_ms)
    result = {"runs": args.runs, "repeat": args.repeat, "delay_ms": args.delay_ms,
              "scenarios": [s.name for s in scenarios], "latency": [str(s) for s in options.latency],
              "timeline": timeline, **calibrate(unchanged, delayed, options)}
    (args.out / "calibration.json").write_text(json.dumps(result, indent=2) + "\n")
    for g in result["gates"]["unchanged_pairs"]:
        for line in g["regressions"]:
            print(f"  false alarm {g['report']} vs {g['baseline']}: {line}")
    print(f"false alarms: {result['false_alarms']} of {result['false_alarm_gates']} gates of unchanged code")
    print(f"delay caught: {result['delay_caught']} of {result['delay_gates']} gates "
          f"(+{args.delay_ms:g} ms per search); gates that also flagged a non-search figure: "
          f"{result['delay_gates_with_other_regressions']}")
    print(f"details: {args.out / 'calibration.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
