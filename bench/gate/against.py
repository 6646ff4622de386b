"""`gate --against REV`: the same-job recipe, baseline and candidate measured in one job on one machine.

Latency is comparable only between runs made side by side (bench/gate/README.md), so this runs both:
REV's code, exported with `git archive` into a temporary folder (never the user's checkout), and the
working tree's, alternating `--rounds` times (baseline 1, candidate 1, baseline 2, ...; each run
`run --repeat R`), so both see the same drift of the machine; the rounds of each side are then
pooled into one report per side (quality from the first round, which every round must equal for a
deterministic backend; latency samples of all rounds). Both reports carry one `environment.job`, so
the gate compares their latency as well as their quality. Each run is a subprocess with
`PYTHONPATH` set to its own tree, so REV may be any commit that has `codemem-bench run`.
"""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import uuid
from pathlib import Path
from typing import Any

from bench.report import Report
from bench.report.fingerprint import JOB_ENV
from bench.report.repetitions import bounded

RUN_TIMEOUT_S = 3600   # one run of a suite; a hung run must not hold CI forever


class AgainstError(ValueError):
    """REV cannot be exported, or one of the runs failed."""


def export_rev(root: Path, rev: str, dest: Path) -> str:
    """Write the tree of `rev` (as `git archive` gives it) into `dest`; its full commit id."""
    try:
        sha = subprocess.run(["git", "-C", str(root), "rev-parse", "--verify", f"{rev}^{{commit}}"], check=True,
                             capture_output=True, text=True, timeout=60).stdout.strip()
        data = subprocess.run(["git", "-C", str(root), "archive", "--format=tar", sha], check=True,
                              capture_output=True, timeout=300).stdout
    except subprocess.CalledProcessError as exc:
        raise AgainstError(f"cannot export {rev!r} from {root}: {exc.stderr.strip()[:300]}") from None
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(dest, filter="data")
    return sha


def _run(tree: Path, args: list[str], out: Path, job: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(tree), JOB_ENV: job}
    cmd = [sys.executable, "-m", "bench.cli.main", "run", *args, "--out", str(out), "--quiet", "--no-seed-defaults"]
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    if done.returncode != 0 or not (out / "report.json").exists():
        raise AgainstError(f"run in {tree} failed (exit {done.returncode}): {(done.stderr or done.stdout)[-500:]}")


def pool(paths: list[Path], job: str) -> Report:
    """One report from several runs of one side: the first run's figures, every run's latency samples."""
    reports = [Report.load(p) for p in paths]
    first = reports[0]
    for r in reports[1:]:
        for name, s in r.scenarios.items():
            if s["per_query"] != first.scenarios[name]["per_query"]:
                first.determinism = {**first.determinism, "declared": False,
                                     "note": f"rounds differ on {name}'s queries: gated by the paired test"}
    scenarios = {}
    for name, s in first.scenarios.items():
        merged: dict[str, list[float]] = {}
        for r in reports:
            for group, values in r.scenarios[name].get("latency_samples_ms", {}).items():
                merged.setdefault(group, []).extend(values)
        reps = [rep for r in reports for rep in r.scenarios[name].get("latency_repetitions", [])]
        scenarios[name] = {**s, "latency_samples_ms": {g: bounded(v, 500 * len(reports)) for g, v in merged.items()},
                           "latency_repetitions": reps}
    reps_total = sum(r.determinism.get("repetitions", 1) if r.determinism else 1 for r in reports)
    determinism = {**first.determinism, "repetitions": reps_total} if first.determinism else {}
    environment = {**first.environment, "job": job}
    return Report(first.backend, first.capabilities, scenarios, environment, determinism)


def run_against(root: Path, rev: str, run_args: list[str], out: Path, rounds: int = 2,
                log: Any = print) -> tuple[Report, Report, str]:
    """Run REV's tree and the working tree alternately; the pooled (baseline, candidate) reports and REV's id."""
    if rounds < 1:
        raise ValueError(f"--rounds must be at least 1, got {rounds}")
    job = os.environ.get(JOB_ENV) or f"against-{uuid.uuid4().hex[:12]}"
    # each side runs with its own tree as working folder, so a relative --out would land inside REV's tree
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="codemem-bench-against-") as tmp:
        tree = Path(tmp) / "tree"
        sha = export_rev(root, rev, tree)
        log(f"note * gate: same-job run {job}: baseline {rev} ({sha[:12]}) and the working tree, "
            f"{rounds} alternating round(s) of `run {' '.join(run_args)}`")
        sides: dict[str, list[Path]] = {"baseline": [], "candidate": []}
        for i in range(rounds):
            for side, where in (("baseline", tree), ("candidate", root)):
                path = out / f"{side}-{i + 1}"
                _run(where, run_args, path, job)
                sides[side].append(path)
    baseline, candidate = pool(sides["baseline"], job), pool(sides["candidate"], job)
    baseline.environment["commit"] = sha
    for side, report in (("baseline", baseline), ("candidate", candidate)):
        (out / side).mkdir(exist_ok=True)
        (out / side / "report.json").write_text(json.dumps(report.to_dict(), indent=2, sort_keys=True) + "\n")
    return baseline, candidate, sha
