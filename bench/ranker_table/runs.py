"""One `codemem-bench run` per (embedder, ranker): the history scenarios, `--no-seed-defaults`, a subprocess each.

Each run is `python3 -m bench.cli.main run <scenarios> --backend reference:<ranker> --no-seed-defaults
--out OUT/<embedder>/<ranker> --quiet` with `CODEMEM_EMBEDDER=<embedder>` (and `CODEMEM_EMBED_CACHE=DIR`
only when the caller asked for the cache), `PYTHONPATH` set to this tree so the subprocess imports it.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATASETS = ("sqlite-utils", "httpx", "attrs")
TASKS = ("blame", "history", "files", "branches")
SCENARIOS = tuple(f"{d}-{t}" for t in TASKS for d in DATASETS)


def run_command(ranker: str, scenarios: list[str], out: Path) -> list[str]:
    return [sys.executable, "-m", "bench.cli.main", "run", *scenarios, "--backend", f"reference:{ranker}",
            "--no-seed-defaults", "--out", str(out), "--quiet"]


def covers(report_dir: Path, scenarios: list[str]) -> bool:
    """A report.json in `report_dir` with a score for every scenario (reused by --resume)."""
    try:
        got = json.loads((report_dir / "report.json").read_text())["scenarios"]
    except (OSError, ValueError, KeyError):
        return False
    return all(s in got for s in scenarios)


def run_one(embedder: str, ranker: str, scenarios: list[str], out: Path, cache: Path | None,
            timeout_s: float, log=print) -> float:
    """Run the scenarios for one (embedder, ranker) into `out`; the wall seconds it took. Raises on failure."""
    env = dict(os.environ, CODEMEM_EMBEDDER=embedder, PYTHONPATH=str(ROOT))
    env.pop("CODEMEM_EMBED_CACHE", None)
    if cache is not None:
        env["CODEMEM_EMBED_CACHE"] = str(cache)
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    with (out / "run.log").open("w") as logf:
        proc = subprocess.run(run_command(ranker, scenarios, out), cwd=ROOT, env=env, stdout=logf,
                              stderr=subprocess.STDOUT, timeout=timeout_s)
    took = time.perf_counter() - start
    if not covers(out, scenarios):
        raise RuntimeError(f"{embedder} / {ranker}: the run ended with code {proc.returncode} and no full "
                           f"report in {out}; see {out / 'run.log'}")
    log(f"  {embedder} / {ranker}: {took:.0f} s")
    return took
