"""Saved runs: `run --save NAME` keeps a report under reports/history/NAME/, `run --compare NAME`
shows each figure's change against it.

A saved run is a copy of the run's report.json, report.md and report.html (telemetry is not
kept: the report's latency samples are enough to re-plot). reports/history/ is the user's and
ignored by git. `changes()` lists the score, its components and each scenario's quality,
checks, targets and p95 latency, saved versus now; it is a plain difference, not a test:
for significance use `compare` (several backends in one run) or `gate`.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

from bench.report.attention import in_run_order
from bench.report.formatting import fmt_metric, fmt_signed

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
SAVED_FILES = ("report.json", "report.md", "report.html")
_QUALITY = ("recall@10", "ndcg@10", "mrr@10")


def history_root() -> Path:
    from bench.scenario.home import project_root
    return project_root() / "reports" / "history"


def check_name(name: str) -> str:
    """`name` if it is a plain folder name (letters, digits, `.`, `_`, `-`; up to 64), else ValueError."""
    if not _NAME.fullmatch(name or ""):
        raise ValueError(f"saved run name {name[:40]!r} must be 1-64 letters, digits, '.', '_' or '-', "
                         "starting with a letter or digit")
    return name


def save_run(report_dir: Path, name: str, root: Path | None = None) -> Path:
    """Copy the report files of `report_dir` to `<root>/<name>/` (replacing an earlier save); its folder."""
    dest = (root or history_root()) / check_name(name)
    dest.mkdir(parents=True, exist_ok=True)
    for f in SAVED_FILES:
        if (report_dir / f).is_file():
            shutil.copyfile(report_dir / f, dest / f)
    return dest


def load_saved(name: str, root: Path | None = None) -> dict[str, Any]:
    """The report.json dict of saved run `name`; ValueError naming the saved runs when it is missing."""
    root = root or history_root()
    path = root / check_name(name) / "report.json"
    if not path.is_file():
        saved = sorted(p.parent.name for p in root.glob("*/report.json")) if root.is_dir() else []
        raise ValueError(f"no saved run {name!r} under {root} (saved: {', '.join(saved[:20]) or 'none'}; "
                         "keep one with `run --save NAME`)")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: cannot read saved report ({exc})") from None


def _figures(report: dict[str, Any]) -> dict[tuple[str, str], float | None]:
    score = report.get("score") or {}
    out: dict[tuple[str, str], float | None] = {("suite", "score"): score.get("value")}
    out |= {("suite", f"component {k}"): v for k, v in (score.get("components") or {}).items()}
    for name, s in report.get("scenarios", {}).items():
        q = s.get("quality") or {}
        out |= {(name, m): q[m] for m in _QUALITY if m in q}
        if s.get("checks", {}).get("total"):
            out[(name, "check_rate")] = s["checks"]["rate"]
        met = [t["met"] is True for t in s.get("targets", [])]
        if met:
            out[(name, "targets met")] = sum(met) / len(met)
        p95 = s.get("latency_ms", {}).get("all", {}).get("p95")
        if p95 is not None:
            out[(name, "p95 ms")] = p95
    return out


def changes(current: dict[str, Any], saved: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows {scope, figure, saved, now, change} for every figure in either report (None where absent)."""
    now, old = _figures(in_run_order(current)), _figures(in_run_order(saved))
    keys = list(dict.fromkeys([*now, *old]))
    rows = []
    for scope, figure in keys:
        a, b = old.get((scope, figure)), now.get((scope, figure))
        rows.append({"scope": scope, "figure": figure, "saved": a, "now": b,
                     "change": None if a is None or b is None else b - a})
    return rows


def change_cells(row: dict[str, Any]) -> tuple[str, str, str]:
    """The saved, now and change cells of a row, formatted by the figure's unit."""
    f = row["figure"]
    return fmt_metric(f, row["saved"]), fmt_metric(f, row["now"]), fmt_signed(f, row["change"])


def changes_table(rows: list[dict[str, Any]], name: str) -> str:
    """Terminal text: one line per figure that changed or is new/gone (unchanged ones are counted)."""
    shown = [r for r in rows if r["change"] is None or abs(r["change"]) > 1e-12]
    lines = [f"change against saved run {name!r} ({len(rows) - len(shown)} figures unchanged):"]
    if not shown:
        return lines[0]
    width = max(len(f"{r['scope']} {r['figure']}") for r in shown)
    for r in shown:
        a, b, d = change_cells(r)
        lines.append(f"  {(r['scope'] + ' ' + r['figure']).ljust(width)}  {a:>10} -> {b:>10}  {d:>10}")
    return "\n".join(lines)
