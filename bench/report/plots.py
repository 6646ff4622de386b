"""Latency figures of a report, as PNG bytes for report.html to inline.

Drawn from each scenario's `latency_samples_ms` (per-step timings of all repetitions,
bounded; see repetitions.py) with matplotlib's Agg canvas, no pyplot, so it works
headless. Each figure explains its axes, and a scenario without samples is left out.
"""
from __future__ import annotations

import io
from typing import Any

import matplotlib
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

_MPL = tuple(int(x) for x in matplotlib.__version__.split(".")[:2])


def _samples(scenarios: dict[str, dict[str, Any]], group: str) -> dict[str, list[float]]:
    out = {}
    for name, s in scenarios.items():
        v = [x for x in (s.get("latency_samples_ms") or {}).get(group, []) if x is not None and x > 0]
        if v:
            out[name] = v
    return out


def _png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def latency_boxplot(scenarios: dict[str, dict[str, Any]], group: str = "all") -> bytes | None:
    """One horizontal box per scenario (log ms), with its latency budget as a red tick; None without samples."""
    data = _samples(scenarios, group)
    if not data:
        return None
    names = list(data)[::-1]  # first scenario on top
    fig = Figure(figsize=(9, 0.55 * len(names) + 1.6), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    # `orientation` arrived in matplotlib 3.10 and `vert` is deprecated from 3.11
    horizontal = {"orientation": "horizontal"} if _MPL >= (3, 10) else {"vert": False}
    ax.boxplot([data[n] for n in names], whis=(5, 95), showfliers=True,
               flierprops={"markersize": 2, "alpha": 0.4}, **horizontal)
    ax.set_yticks(range(1, len(names) + 1), names, fontsize=9)
    budgets = [(i, scenarios[n].get("latency_budget_ms")) for i, n in enumerate(names, start=1)]
    marked = [(i, b) for i, b in budgets if b]
    if marked:
        ax.scatter([b for _, b in marked], [i for i, _ in marked], marker="|", s=300, color="tab:red",
                   zorder=3, label="latency budget")
        ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), fontsize=8, frameon=False)
    ax.set_xscale("log")
    ax.set_xlabel(f"ms per operation, log scale ({'all timed operations' if group == 'all' else group}); "
                  "box: quartiles, whiskers: 5th–95th percentile")
    ax.grid(axis="x", alpha=0.3, which="both")
    fig.tight_layout()
    return _png(fig)


def latency_ecdf(scenarios: dict[str, dict[str, Any]], group: str = "all") -> bytes | None:
    """The empirical CDF of each scenario's operation latencies (log ms); None without samples."""
    data = _samples(scenarios, group)
    if not data:
        return None
    fig = Figure(figsize=(9, 4.5), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    styles = ["-", "--", ":", "-."]
    for i, (name, v) in enumerate(data.items()):
        x = np.sort(np.asarray(v))
        y = np.arange(1, len(x) + 1) / len(x)
        ax.step(x, y, where="post", linestyle=styles[(i // 10) % len(styles)], label=name)
    ax.axhline(0.95, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xscale("log")
    ax.set_ylim(0, 1.01)
    ax.set_xlabel("ms per operation (log scale)")
    ax.set_ylabel("share of operations at most this fast")
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8)
    ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    return _png(fig)
