"""Run history: each `codemem-bench run` without `--out` keeps its own folder, and `reports/latest/<backend>`
points to the newest (as pytest-benchmark's autosave keeps every run under `.benchmarks/`).

Layout (under the reports folder, `bench.scenario.home.reports_dir()`):

    runs/<stamp>-<backend>/          one run: report.json, .md, .html, run.json, telemetry/, seed-defaults/
    latest/<backend> -> ../runs/<stamp>-<backend>     a relative symlink to the newest run of that backend

`<stamp>` is the UTC wall-clock time the run started (`20261127T140512Z`), used for the folder's name and
order only: scores never read it. A second run of the same backend in the same second gets `-2`, `-3`.
Both folders sit two levels below the project root, so report.html's relative links (SCORING.md, the
scenario files) work whichever of the two paths a browser opened. Where a symlink cannot be made
(Windows without the privilege), `latest/<backend>/` is a copy of the run's report files plus a file
`RUN` naming the run's folder. A `latest/<backend>` that is still a real folder from before runs were kept
is moved into `runs/` first, never deleted.

`run.json` (one per run folder) holds what the trend in report.html plots, so the trend reads a few
kilobytes per run, not each report.json: `{backend, folder, date, commit, score, components, suite (run order),
scenarios: {name: {figure: value}}}`, the figures being the scenario's quality means at 10 and its check rate.
"""
from __future__ import annotations

import json
import os
import re
import shutil
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

STAMP = "%Y%m%dT%H%M%SZ"
_STAMP_RE = re.compile(r"\d{8}T\d{6}Z")
TREND_LIMIT = 30           # the trend shows at most this many of the newest runs
REPORT_FILES = ("report.json", "report.md", "report.html", "run.json")


def slug(backend: str) -> str:
    """A backend spec as a folder name: `reference:memory-lane` -> `reference-memory-lane`."""
    return backend.replace(":", "-").replace("/", "-")


def new_run_dir(reports: Path, backend: str, now: datetime | None = None) -> Path:
    """A new, empty folder `reports/runs/<stamp>-<backend>/` for a run starting now (wall clock, UTC)."""
    stamp = (now or datetime.now(timezone.utc)).strftime(STAMP)
    base = reports / "runs" / f"{stamp}-{slug(backend)}"
    path, n = base, 1
    while True:
        try:
            path.mkdir(parents=True)
            return path
        except FileExistsError:
            n += 1
            path = base.with_name(f"{base.name}-{n}")


def _adopt(latest: Path, reports: Path, backend: str) -> None:
    """Move a real `latest/<backend>` folder (made before runs were kept) into runs/, keeping its files."""
    date = None
    try:
        date = json.loads((latest / "report.json").read_text(encoding="utf-8"))["environment"]["date"]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    when = datetime.strptime(date, "%Y-%m-%dT%H:%M:%SZ") if isinstance(date, str) and len(date) == 20 else \
        datetime.fromtimestamp(latest.stat().st_mtime, timezone.utc)
    dest = new_run_dir(reports, backend, when)
    dest.rmdir()
    shutil.move(str(latest), str(dest))


def point_latest(reports: Path, backend: str, run_dir: Path) -> Path:
    """Make `reports/latest/<backend>` point to `run_dir` (see the module docstring); the pointer's path."""
    latest = reports / "latest" / slug(backend)
    latest.parent.mkdir(parents=True, exist_ok=True)
    if latest.is_symlink() or latest.is_file():
        latest.unlink()
    elif latest.is_dir():
        if (latest / "RUN").is_file():      # the copy made where symlinks are refused: replace it
            shutil.rmtree(latest)
        else:
            _adopt(latest, reports, backend)
    target = Path(os.path.relpath(run_dir.resolve(), latest.parent.resolve()))
    try:
        latest.symlink_to(target, target_is_directory=True)
    except OSError:
        latest.mkdir()
        for name in REPORT_FILES:
            if (run_dir / name).is_file():
                shutil.copyfile(run_dir / name, latest / name)
        (latest / "RUN").write_text(f"{run_dir.resolve()}\n", encoding="utf-8")
    return latest


def run_figures(report: dict[str, Any], folder: str) -> dict[str, Any]:
    """The `run.json` of a report dict: what the trend plots (see the module docstring)."""
    env = report.get("environment") or {}
    scen = {}
    for name, s in (report.get("scenarios") or {}).items():
        figs = {k: v for k, v in (s.get("quality") or {}).items() if k.endswith("@10") and v is not None}
        if (s.get("checks") or {}).get("total"):
            figs["check_rate"] = s["checks"]["rate"]
        scen[name] = figs
    return {"backend": report.get("backend"), "folder": folder, "date": env.get("date"),
            "commit": env.get("commit"), "score": (report.get("score") or {}).get("value"),
            "components": (report.get("score") or {}).get("components") or {},
            "suite": list(report.get("suite") or scen), "scenarios": scen}


def write_run_figures(out: Path, report: dict[str, Any]) -> Path:
    path = out / "run.json"
    path.write_text(json.dumps(run_figures(report, out.name), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path


def history(reports: Path, backend: str, limit: int = TREND_LIMIT) -> list[dict[str, Any]]:
    """The `run.json` of each kept run of `backend`, oldest first, at most the newest `limit`.

    Folders are named `<stamp>-<backend>[-N]`, so their names sort by time; a run.json that cannot be
    read, or that names another backend, is left out (a folder name alone does not decide the backend)."""
    root = reports / "runs"
    if not root.is_dir():
        return []
    want = slug(backend)
    names = sorted(p.name for p in root.iterdir() if _STAMP_RE.match(p.name)
                   and re.fullmatch(rf"{_STAMP_RE.pattern}-{re.escape(want)}(-\d+)?", p.name))
    out = []
    for name in names[-limit:]:
        try:
            data = json.loads((root / name / "run.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if data.get("backend") == backend:
            out.append(data)
    return out
