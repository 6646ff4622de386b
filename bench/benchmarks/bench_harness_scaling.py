"""Harness cost against scenario size: wall time over summed step latency at ×1, ×2, ×4, ×8.

Run:  python -m pytest bench/benchmarks/bench_harness_scaling.py --benchmark-only -s
 or:  python -m bench.benchmarks.bench_harness_scaling          (prints one JSON line per size)
Scale: CODEMEM_BENCH_SCALING_BASE writes at ×1 (default 250; ×8 is 8 times that, at most
22,708, the real hunk memories of the three histories), CODEMEM_BENCH_SCALING_BACKEND
(default `fts-baseline`, a backend whose writes cost the same at any size, so what grows
is the harness; `reference` works too but its knowledge layer makes writes O(n)).

A size-N scenario is N real memories (the hunk-granularity writes of
scenarios/data/{sqlite-utils,httpx,attrs}, in order) with a ranked search after every
10th write asking for a memory written 5 writes earlier by its own first words.
Each size goes through the whole `run` pipeline (`bench.run.run_suite`: replay,
census, summary, baselines) and `Report.save`. `ratio` = wall / summed step latency
(the telemetry's `latency_ms`). A harness that is O(steps) keeps `ratio` flat as N
doubles; an O(steps²) part makes it grow. No speed is asserted: this is a report.

The harness's own time (`harness_s` = wall - summed step latency) also has a part that
does not grow with N: the HTML report's two matplotlib plots (~0.4 s here), so at small
N the ratio starts high and falls. `fit()` separates the two by least squares over the
four sizes: `fixed_s` + `per_step_ms` x steps, and the largest relative residual, which
stays well under 1 for a harness linear in its steps (0.34 in a noisy run here) and passes 1 with an
O(steps²) part (2.1 for a quadratic term as large as the steps at ×8).
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BASE = int(os.environ.get("CODEMEM_BENCH_SCALING_BASE", "250"))
BACKEND = os.environ.get("CODEMEM_BENCH_SCALING_BACKEND", "fts-baseline")
FACTORS = (1, 2, 4, 8)


def real_writes(limit: int) -> list[dict]:
    """Up to `limit` hunk-granularity memory writes of the three shipped histories, in order."""
    from bench.scenario.history_generator import history_generator
    generate, load = history_generator().generate, history_generator().load
    out: list[dict] = []
    for data in ("sqlite-utils", "httpx", "attrs"):
        lines, _ = generate(load(ROOT / "scenarios" / "data" / data), "blame", granularity="hunk")
        out += [s for s in lines[1:] if s.get("tool") == "memory_write_structured"]
        if len(out) >= limit:
            break
    return out[:limit]


def scenario_lines(writes: list[dict]) -> list[dict]:
    """Header, then the writes with a ranked search after every 10th (see the module docstring)."""
    lines: list[dict] = [{"scenario": f"harness-scaling-{len(writes)}", "format": 1, "start_time": 1.7e9,
                          "description": "harness scaling (bench/benchmarks/bench_harness_scaling.py)",
                          "source": "scenarios/data histories", "latency_budget_ms": 50, "targets": []}]
    for i, w in enumerate(writes, start=1):
        lines.append({"directive": "advance_clock", "seconds": 1})
        lines.append(w)
        if i % 10 == 0 and i > 5:
            target = writes[i - 6]
            query = " ".join(target["args"]["text"].split()[:12])
            lines.append({"tool": "memory_search_structured", "args": {"query": query, "top_k": 10},
                          "id": f"q{i}", "expect": {"relevant": {target["as"]: 1}, "k": 10}})
    return lines


def measure(n: int, writes: list[dict], folder: Path, backend: str = BACKEND) -> dict:
    """Run one size through the `run` pipeline; wall seconds, summed step latency, their ratio."""
    from bench.run import run_suite, telemetry_path
    from bench.scenario.loader import load_scenario
    from reference.telemetry import read_events
    path = folder / f"scaling-{n}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in scenario_lines(writes[:n])))
    sc = load_scenario(path)
    out = folder / f"out-{n}"
    t0 = time.perf_counter()
    report = run_suite(backend, [sc], out)
    report.save(out)
    wall = time.perf_counter() - t0
    steps_ms = sum(e["latency_ms"] or 0.0 for e in read_events(telemetry_path(out, sc.name))
                   if e["source"] == "harness")
    return {"writes": n, "steps": len(sc.steps), "wall_s": round(wall, 3), "steps_s": round(steps_ms / 1000, 3),
            "harness_s": round(wall - steps_ms / 1000, 3), "ratio": round(wall / max(steps_ms / 1000, 1e-9), 3)}


def fit(rows: list[dict]) -> dict:
    """Least-squares `harness_s = fixed_s + per_step_ms / 1000 x steps` over the sizes, with the worst
    residual relative to the harness time it explains (`worst_residual`)."""
    import numpy as np
    steps = np.array([r["steps"] for r in rows], dtype=float)
    harness = np.array([r["harness_s"] for r in rows], dtype=float)
    slope, fixed = np.polyfit(steps, harness, 1)
    residual = np.abs(harness - (fixed + slope * steps)) / np.maximum(harness, 1e-9)
    return {"fixed_s": round(float(fixed), 3), "per_step_ms": round(float(slope) * 1000, 4),
            "worst_residual": round(float(residual.max()), 3)}


def scaling(base: int = BASE, backend: str = BACKEND) -> list[dict]:
    writes = real_writes(base * FACTORS[-1])
    with tempfile.TemporaryDirectory(prefix="harness-scaling-") as tmp:
        return [{"factor": f, "backend": backend, **measure(base * f, writes, Path(tmp), backend)} for f in FACTORS]


def test_harness_scaling(benchmark) -> None:
    """One pass over ×1..×8 (pytest-benchmark times the whole pass); the ratios go in extra_info."""
    rows = benchmark.pedantic(scaling, rounds=1, iterations=1)
    for r in rows:
        benchmark.extra_info[f"x{r['factor']}"] = r
        print(json.dumps(r))
    benchmark.extra_info["fit"] = line = fit(rows)
    print(json.dumps({"harness_fit": line}))
    assert [r["writes"] for r in rows] == [BASE * f for f in FACTORS]


if __name__ == "__main__":
    found = scaling()
    for row in found:
        print(json.dumps(row), flush=True)
    print(json.dumps({"harness_fit": fit(found)}))
    sys.exit(0)
