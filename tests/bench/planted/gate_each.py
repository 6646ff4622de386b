"""Run each planted fault on a suite and gate it against an honest reference run: every one must fail.

    python3 -m tests.bench.planted.gate_each [--suite small] [--out DIR] [NAME ...]

The baseline is an honest `reference` run of the same suite made first (quality is deterministic, so
any machine's run serves; latency is not gated). Prints one line per fault with the regressions that
caught it, and exits 1 if any fault passes the gate or the unchanged reference (run again) fails it.
`.ci/run` calls this for every fault in `backends.GATE_FAILS`.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from bench.backends.registry import register_backend, unregister_backend
from bench.gate import EXIT_PASS, EXIT_REGRESSION, GateOptions, run_gate
from bench.run import run_suite
from bench.scenario.suites import resolve
from tests.bench.planted.backends import GATE_FAILS

QUALITY_ONLY = GateOptions(latency=())


def gate_each(suite: str, out: Path, names: list[str] | None = None, log=print) -> dict[str, int]:
    """{backend: gate exit code} for the unchanged reference and each planted fault (or those named)."""
    scenarios = resolve([], suite=suite)
    faults = [c for c in GATE_FAILS if not names or c.name in names]
    t = time.monotonic()
    baseline = run_suite("reference", scenarios, out / "baseline")
    log(f"baseline: reference on {suite} ({len(scenarios)} scenarios), {time.monotonic() - t:.0f} s")
    codes = {}
    for cls in faults:
        register_backend(cls.name, cls)
    try:
        for spec in ["reference", *(c.name for c in faults)]:
            t = time.monotonic()
            result = run_gate(run_suite(spec, scenarios, out / spec), baseline, QUALITY_ONLY)
            codes[spec] = result.exit_code
            want = EXIT_PASS if spec == "reference" else EXIT_REGRESSION
            caught = ", ".join(f"{f.scenario} {f.metric}" for f in result.regressions[:4])
            more = f" (+{len(result.regressions) - 4})" if len(result.regressions) > 4 else ""
            log(f"{'ok  ' if result.exit_code == want else 'BAD '} {spec}: gate exit {result.exit_code} "
                f"in {time.monotonic() - t:.0f} s{': ' + caught + more if caught else ''}")
    finally:
        for cls in faults:
            unregister_backend(cls.name)
    return codes


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python3 -m tests.bench.planted.gate_each", description=__doc__.split("\n\n")[0])
    p.add_argument("names", nargs="*", help="planted faults to run (default: every one)")
    p.add_argument("--suite", default="small", help="suite from scenarios/suites.json (default: small)")
    p.add_argument("--out", type=Path, default=Path("reports/latest/planted"), help="reports of every run")
    args = p.parse_args(argv)
    known = {c.name for c in GATE_FAILS}
    if set(args.names) - known:
        p.error(f"unknown planted faults {sorted(set(args.names) - known)}; known: {', '.join(sorted(known))}")
    codes = gate_each(args.suite, args.out, args.names)
    bad = [b for b, c in codes.items() if c != (EXIT_PASS if b == "reference" else EXIT_REGRESSION)]
    print(f"planted: {len(codes) - 1 - sum(b != 'reference' for b in bad)} of {len(codes) - 1} faults failed the "
          f"gate; unchanged reference {'passed' if 'reference' not in bad else 'FAILED'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
