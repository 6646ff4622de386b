"""Quality figures of a report, as PNG bytes for report.html to inline: is a figure good?

`quality_chart`: per ranked scenario, the backend's nDCG@10 beside the recency and BM25 baselines the
harness computed on the same queries, with the seed target as a red tick. `trend_chart`: the score and
each scenario's quality over the kept runs of one backend (bench/report/runs.py). Agg canvas, no pyplot.
"""
from __future__ import annotations

import math
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from bench.report.plots import _png

METRIC = "ndcg@10"
_BARS = (("backend", "tab:blue"), ("recency", "tab:gray"), ("bm25", "tab:orange"))


def _target(s: dict[str, Any], metric: str) -> float | None:
    for t in s.get("targets") or []:
        if t.get("metric") == metric and t.get("op") in (">=", ">"):
            return float(t["target"])
    return None


def quality_chart(scenarios: dict[str, dict[str, Any]], backend: str, metric: str = METRIC) -> bytes | None:
    """Grouped horizontal bars per scenario with ranked queries; None when no scenario has any."""
    rows = [(n, s) for n, s in scenarios.items() if (s.get("quality") or {}).get(metric) is not None]
    if not rows:
        return None
    rows = rows[::-1]   # first scenario on top
    fig = Figure(figsize=(11, 0.42 * len(rows) + 1.6), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    h = 0.26
    for k, (who, colour) in enumerate(_BARS):
        values = [(s.get("quality") or {}).get(metric) if who == "backend"
                  else ((s.get("baselines") or {}).get(who) or {}).get(metric) for _, s in rows]
        ys = [i + (1 - k) * h for i in range(len(rows))]
        label = backend if who == "backend" else f"baseline: {who}"
        ax.barh([y for y, v in zip(ys, values) if v is not None], [v for v in values if v is not None], height=h,
                color=colour, label=label)
    targets = [(i, _target(s, metric)) for i, (_, s) in enumerate(rows)]
    marked = [(i, t) for i, t in targets if t is not None]
    if marked:
        ax.scatter([t for _, t in marked], [i for i, _ in marked], marker="|", s=500, color="tab:red", zorder=3,
                   label="seed target")
    ax.set_yticks(range(len(rows)), [n for n, _ in rows], fontsize=9)
    ax.set_xlim(0, 1)
    ax.set_xlabel(f"{metric} (mean over the scenario's ranked queries; higher is better)")
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=4, fontsize=8, frameon=False)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return _png(fig)


def _scenario_figure(figs: dict[str, Any]) -> tuple[str, float] | None:
    """The figure a trend panel plots for one scenario: nDCG@10 when it has ranked queries, else check rate."""
    for key in (METRIC, "check_rate"):
        if figs.get(key) is not None:
            return key, float(figs[key])
    return None


def trend_chart(points: list[dict[str, Any]]) -> bytes | None:
    """The score and one small panel per scenario over the runs in `points` (run.json dicts, oldest first);
    None with fewer than two runs (a trend needs two)."""
    if len(points) < 2:
        return None
    # panels in the run order of the newest run, then scenarios only earlier runs had
    names = list(dict.fromkeys([*(points[-1].get("suite") or []),
                                *(n for p in reversed(points) for n in p.get("scenarios") or {})]))
    cols = 4
    nrows = 1 + math.ceil(len(names) / cols)
    fig = Figure(figsize=(11, 2.1 + 1.55 * (nrows - 1)), dpi=100)
    FigureCanvasAgg(fig)
    grid = fig.add_gridspec(nrows, cols, height_ratios=[1.6] + [1] * (nrows - 1))
    x = list(range(1, len(points) + 1))
    ax = fig.add_subplot(grid[0, :])
    scores = [p.get("score") for p in points]
    ax.plot(x, scores, marker="o", color="tab:blue")
    known = [v for v in scores if v is not None]
    if known:   # at least 2 points of score visible: a 0.06 move from latency must not fill the panel
        mid, half = (max(known) + min(known)) / 2, max(1.0, (max(known) - min(known)) / 2 * 1.15)
        ax.set_ylim(mid - half, mid + half)
    ax.set_title("codemem-bench score per run (oldest left, this run right)", fontsize=10)
    ax.set_xticks(x, [str(p.get("date") or "?")[:16].replace("T", " ") for p in points], fontsize=7,
                  rotation=20, ha="right")
    ax.grid(alpha=0.3)
    for i, name in enumerate(names):
        a = fig.add_subplot(grid[1 + i // cols, i % cols])
        got = [(j, _scenario_figure((p.get("scenarios") or {}).get(name) or {})) for j, p in zip(x, points)]
        got = [(j, f) for j, f in got if f is not None]
        kind = got[-1][1][0] if got else METRIC
        a.plot([j for j, _ in got], [f[1] for _, f in got], marker=".", color="tab:green")
        a.set_title(f"{name} ({'nDCG@10' if kind == METRIC else 'check rate'})", fontsize=8)
        a.set_ylim(-0.02, 1.02)
        a.set_xticks(x, [""] * len(x))
        a.tick_params(labelsize=7)
        a.grid(alpha=0.3)
    fig.tight_layout()
    return _png(fig)
