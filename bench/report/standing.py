"""Where a run stands: its figures beside the committed ones, and its trend over the kept runs.

Two report.html sections, shared so that every run answers "is this good?" without `--compare`:
- **Beside committed figures**: the run's score and each scenario's nDCG@10 (check rate where a scenario
  has no ranked query) next to the reference's last committed baseline (`reports/baseline/reference/
  report.json`, the default suite) and the rows of the README's side-by-side table
  (`reports/readme/side_by_side.json`, the default suite, real MCP memory servers). Both files are read
  from the project (a checkout, `CODEMEM_BENCH_HOME`, or the copy an installed wheel carries); a missing
  file leaves its columns out and the section says so.
- **Trend**: the score and each scenario's quality over the kept runs of the backend (bench/report/runs.py).
"""
from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Any, Callable

from bench.report.formatting import fmt_rate, fmt_score
from bench.report.quality_plots import trend_chart

BASELINE = Path("reports/baseline/reference/report.json")
SIDE_BY_SIDE = Path("reports/readme/side_by_side.json")
COLUMNS_PER_TABLE = 4


def _figures(s: dict[str, Any]) -> dict[str, float]:
    """A scenario's nDCG@10 (with ranked queries) and check rate (with checks), whichever it has."""
    q, c = s.get("quality") or {}, s.get("checks") or {}
    out = {"nDCG@10": q.get("ndcg@10"), "check rate": c.get("rate") if c.get("total") else None}
    return {k: v for k, v in out.items() if v is not None}


def _figure(s: dict[str, Any]) -> tuple[str, float | None]:
    """The figure this section shows for a scenario: nDCG@10 when it has ranked queries, else check rate."""
    figs = _figures(s)
    kind = "nDCG@10" if "nDCG@10" in figs else "check rate"
    return kind, figs.get(kind)


def committed_columns(root: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """Columns [{label, title, score, figures: {scenario: value}}] from the committed files, and notes on
    what was missing."""
    cols, notes = [], []
    try:
        base = json.loads((root / BASELINE).read_text(encoding="utf-8"))
        env = base.get("environment") or {}
        cols.append({"label": "reference (baseline)",
                     "title": f"reports/baseline/reference ({len(base.get('scenarios') or {})} scenarios), "
                              f"commit {str(env.get('commit', '?'))[:7]}, "
                              f"{str(env.get('date', '?'))[:10]}",
                     "score": (base.get("score") or {}).get("value"),
                     "figures": {n: _figures(s) for n, s in (base.get("scenarios") or {}).items()}})
    except (OSError, ValueError) as exc:
        notes.append(f"no committed reference baseline ({BASELINE}: {type(exc).__name__})")
    try:
        side = json.loads((root / SIDE_BY_SIDE).read_text(encoding="utf-8"))
        for r in side["rows"]:
            figs = {n: {"nDCG@10": v} for n, v in (r.get("ndcg@10") or {}).items() if v is not None}
            cols.append({"label": f"{r['backend']} (README)",
                         "title": f"README side by side, suite {side.get('suite')}"
                                  + (f" ({side['cut']})" if side.get("cut") else "")
                                  + f", commit {side.get('commit')}, {side.get('date')}",
                         "score": r.get("score"), "figures": figs})
    except (OSError, ValueError, KeyError) as exc:
        notes.append(f"no README side-by-side figures ({SIDE_BY_SIDE}: {type(exc).__name__})")
    return cols, notes


def beside_committed_html(report: dict[str, Any], root: Path, table: Callable[..., str]) -> str:
    """The section placing this run's figures beside the committed ones (module docstring)."""
    cols, notes = committed_columns(root)
    tables = []
    # a few committed columns per table, so that a long side-by-side (ten rows and more) still fits a window
    for start in range(0, max(len(cols), 1), COLUMNS_PER_TABLE):
        part = cols[start:start + COLUMNS_PER_TABLE]
        head = ["scenario", "figure", f"this run ({report.get('backend')})", *[c["label"] for c in part]]
        rows = [["score (0–100)", "score", fmt_score((report.get("score") or {}).get("value")),
                 *[fmt_score(c["score"]) for c in part]]]
        for name, s in report["scenarios"].items():
            kind, value = _figure(s)
            cells = [fmt_rate((c["figures"].get(name) or {}).get(kind)) for c in part]   # the same figure, or `-`
            rows.append([name, kind, fmt_rate(value), *cells])
        tables.append(table(head, rows))
    sources = "".join(f"<li><b>{escape(c['label'])}</b>: {escape(c['title'])}</li>" for c in cols)
    missing = "".join(f"<li>{escape(n)}</li>" for n in notes)
    return ('<section id="standing"><h2>Beside committed figures</h2>'
            "<p>This run next to the reference's last committed baseline and the README's side-by-side run of "
            "real MCP memory servers. Scores of different suites differ in what they average over; compare a "
            "scenario's figure with the same scenario's. <code>-</code>: that run did not have the scenario, or "
            "the backend ran none of its queries.</p>"
            f"<ul>{sources}{missing}</ul>" + "".join(tables) + "</section>")


def trend_html(points: list[dict[str, Any]], img: Callable[[bytes | None, str], str]) -> str:
    """The trend section over `points` (run.json dicts, oldest first, this run last)."""
    if len(points) < 2:
        return ('<section id="trend"><h2>Trend over kept runs</h2><p>No earlier kept run of this backend: runs '
                "without <code>--out</code> are kept under <code>reports/runs/</code>, and the trend appears from "
                "the second (a run with <code>--out</code> is not kept and shows none).</p></section>")
    return ('<section id="trend"><h2>Trend over kept runs</h2>'
            f"<p>The last {len(points)} runs of this backend kept under <code>reports/runs/</code> (this run "
            "last): the score, and each scenario's nDCG@10 (its check rate where it has no ranked query). Quality "
            "figures are deterministic, so a step in a scenario's line is a change in the code, the scenarios or "
            "the data; the score also holds the latency component, which moves with the machine and its load.</p>"
            + img(trend_chart(points), "score and quality per scenario over kept runs") + "</section>")
