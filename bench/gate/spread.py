"""A nondeterministic backend's run-to-run spread, and the gate tolerance that absorbs it.

    python3 -m bench.gate.spread RUN RUN RUN [...] [--alpha 0.05] [--step 0.005] [--json FILE]

RUN: a report folder (or its report.json) of one backend on the same scenarios, each made by unchanged
code. For every figure the quality gate compares (each ranking metric's mean over a scenario's queries,
the check rate, coverage and the scenario's extra metrics) it prints each run's value and the largest
swing. Then it gates every ordered pair of runs, quality alone, with the paired test (as `gate` treats a
backend that does not declare deterministic quality), and finds what each pair needs: the largest
worsening among the scenario figures (gated on the minimal effect alone) and among the ranking metrics
whose paired test is significant (p < alpha after Holm; an insignificant drop never fails): the
smallest minimal effect at which these runs pass. Few runs see little, so the suggestion is the larger
of that need and the largest swing of any figure (a count may move next time as far as a mean moved
this time), rounded up to `--step`. Both are checked with `run_gate` itself: every pair passes at the
suggestion, and, when the need is above 0, some pair fails one step below the need. An MCP adapter's
`[gate] min_effect` is chosen from it (bench/backends/mcp/README.md, "Nondeterministic servers"); the
runs should span the loads the gate will see (one of them beside another job, say).
"""
from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.compare.direction import worse_by
from bench.gate.gate import GateOptions, run_gate
from bench.gate.quality import quality_findings
from bench.report import Report


@dataclass
class Spread:
    """The figures of N unchanged runs, what each ordered pair of them needs, and the tolerance suggested."""

    runs: list[str]
    values: dict[tuple[str, str], list[float | None]]      # (scenario, figure) -> each run's value
    needs: dict[tuple[int, int], tuple[float, str]]        # (baseline run, report run) -> (need, what sets it)
    suggested: float = 0.0
    checked: dict[str, Any] = field(default_factory=dict)

    @property
    def need(self) -> float:
        """The largest need of any pair: the smallest min effect at which every pair passes."""
        return max((n for n, _ in self.needs.values()), default=0.0)

    def swing(self, key: tuple[str, str]) -> float:
        """max - min over the runs that have the figure (0.0 when fewer than two do)."""
        vals = [v for v in self.values[key] if v is not None]
        return max(vals) - min(vals) if len(vals) > 1 else 0.0

    def largest_swing(self) -> tuple[float, tuple[str, str] | None]:
        """The largest swing of any figure, and which (scenario, figure) it is (None when nothing moved)."""
        return max(((self.swing(k), k) for k in self.values), default=(0.0, None))

    def to_dict(self) -> dict[str, Any]:
        return {"runs": self.runs,
                "figures": [{"scenario": s, "figure": f, "values": v, "swing": self.swing((s, f))}
                            for (s, f), v in self.values.items()],
                "pairs": [{"baseline": self.runs[a], "report": self.runs[b], "need": n, "set_by": why}
                          for (a, b), (n, why) in self.needs.items()],
                "need": self.need, "largest_swing": self.largest_swing()[0],
                "suggested_min_effect": self.suggested, "checked": self.checked}

    def to_table(self) -> str:
        """The figures that moved (largest swing first), then each pair's need and the suggestion."""
        moved = sorted((k for k in self.values if self.swing(k) > 0), key=lambda k: (-self.swing(k), k))
        lines = [f"{len(self.values)} figures over {len(self.runs)} runs; {len(moved)} moved",
                 "| scenario | figure | " + " | ".join(f"run {i + 1}" for i in range(len(self.runs))) + " | swing |",
                 "|---|---|" + "---|" * len(self.runs) + "---|"]
        for s, f in moved:
            cells = " | ".join("-" if v is None else f"{v:.3f}" for v in self.values[(s, f)])
            lines.append(f"| {s} | {f} | {cells} | {self.swing((s, f)):.3f} |")
        lines.append("")
        for (a, b), (need, why) in self.needs.items():
            lines.append(f"run {b + 1} gated against run {a + 1}: needs min effect >= {need:.4f} ({why})")
        swing, key = self.largest_swing()
        lines.append(f"needed by these runs: {self.need:.4f}; largest swing: {swing:.4f}"
                     + (f" ({key[0]} {key[1]})" if key else ""))
        lines.append(f"suggested min_effect: {self.suggested:g}")
        for what, verdict in self.checked.items():
            lines.append(f"checked with the gate: {what}: {verdict}")
        return "\n".join(lines)


def load_runs(paths: list[Path]) -> list[Report]:
    """The reports, which must be of one backend and cover the same scenarios; ValueError says which differs."""
    if len(paths) < 2:
        raise ValueError(f"a spread needs at least two runs, got {len(paths)}")
    reports = [Report.load(p) for p in paths]
    first = reports[0]
    for path, r in zip(paths[1:], reports[1:]):
        if r.backend != first.backend:
            raise ValueError(f"{path}: backend {r.backend!r}, but {paths[0]} is of {first.backend!r}")
        if sorted(r.scenarios) != sorted(first.scenarios):
            raise ValueError(f"{path}: scenarios {sorted(r.scenarios)} differ from {paths[0]}'s "
                             f"{sorted(first.scenarios)}")
    return reports


def _need(baseline: Report, report: Report, alpha: float) -> tuple[float, str]:
    """The smallest minimal effect at which `report` passes against `baseline` (quality, paired test)."""
    need, why = 0.0, "no scenario figure worsened, no ranking drop was significant"
    for name, cur in report.scenarios.items():
        for f in quality_findings(name, baseline.scenarios[name], cur, min_effect=0.0, alpha=alpha):
            if f.baseline is None or f.current is None:
                continue
            if f.p_value is not None and not f.p_value < alpha:
                continue   # a ranking metric whose drop the paired test does not confirm never fails
            worse = worse_by(f.metric, f.baseline, f.current)
            if worse > need:
                need, why = worse, f.line()
    return need, why


def _fails(reports: list[Report], pairs: list[tuple[int, int]], min_effect: float, alpha: float) -> list[str]:
    """The pairs that the gate fails at `min_effect` (quality alone, paired test), as 'run B vs run A'."""
    options = GateOptions(min_effect=min_effect, alpha=alpha, latency=(), exact=False)
    return [f"run {b + 1} vs run {a + 1}" for a, b in pairs
            if run_gate(reports[b], reports[a], options).exit_code != 0]


def measure(paths: list[Path], alpha: float = 0.05, step: float = 0.005) -> Spread:
    """The spread of the runs at `paths` and the min effect suggested (see the module docstring)."""
    if not step > 0:
        raise ValueError(f"--step must be above 0, got {step}")
    reports = load_runs(paths)
    values: dict[tuple[str, str], list[float | None]] = {}
    for i, r in enumerate(reports):
        for name, s in r.scenarios.items():
            # a scenario against itself, exactly: every gated figure once, with no permutation test to run
            figures = {f.metric: f.baseline for f in quality_findings(name, s, s, min_effect=0.0, alpha=alpha,
                                                                     exact=True) if f.baseline is not None}
            for metric, v in figures.items():
                values.setdefault((name, metric), [None] * len(reports))[i] = v
    pairs = list(itertools.permutations(range(len(reports)), 2))
    needs = {(a, b): _need(reports[a], reports[b], alpha) for a, b in pairs}
    spread = Spread([str(p) for p in paths], values, needs)
    need = spread.need
    spread.suggested = _up(max(need, spread.largest_swing()[0]), step)
    failing = _fails(reports, pairs, spread.suggested, alpha)
    spread.checked[f"every pair at {spread.suggested:g}"] = "pass" if not failing else f"FAIL: {', '.join(failing)}"
    if need > 0:
        below = round(_up(need, step) - step, 6)
        spread.checked[f"one step below the need, at {below:g}"] = (
            f"fails {len(_fails(reports, pairs, below, alpha))} of {len(pairs)} pairs")
    return spread


def _up(x: float, step: float) -> float:
    """`x` rounded up to a multiple of `step` (a value already on the grid stays)."""
    return round(math.ceil(x / step - 1e-9) * step, 6)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python3 -m bench.gate.spread", description=__doc__.split("\n\n")[0])
    p.add_argument("runs", nargs="+", type=Path, help="report folders (or report.json) of unchanged runs")
    p.add_argument("--alpha", type=float, default=0.05, help="the gate's significance level (default: 0.05)")
    p.add_argument("--step", type=float, default=0.005, help="the suggestion is rounded up to this (default: 0.005)")
    p.add_argument("--json", type=Path, help="also write the figures, pairs and suggestion here")
    args = p.parse_args(argv)
    try:
        spread = measure(args.runs, args.alpha, args.step)
    except (ValueError, OSError) as e:
        print(f"spread: {e}", file=sys.stderr)
        return 2
    print(spread.to_table())
    if args.json:
        args.json.write_text(json.dumps(spread.to_dict(), indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
