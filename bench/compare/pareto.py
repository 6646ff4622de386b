"""The quality-versus-latency view: nDCG@10 against p95 latency, with the Pareto front.

Drawn with matplotlib's Agg canvas directly (no pyplot, no global backend switch), so
it works headless and in threads.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure


def pareto_front(points: dict[str, tuple[float, float]]) -> list[str]:
    """Names of the points (latency, quality) that no other point dominates, by rising latency.

    A point dominates another when its latency is no higher and its quality no lower,
    and at least one of the two is strictly better.
    """
    front = []
    for a, (la, qa) in points.items():
        dominated = any((lb <= la and qb >= qa) and (lb < la or qb > qa)
                        for b, (lb, qb) in points.items() if b != a)
        if not dominated:
            front.append(a)
    return sorted(front, key=lambda n: (points[n][0], -points[n][1]))


def _row(sc: dict[str, Any], metric: str) -> dict[str, Any] | None:
    return next((r for r in sc["quality"] + sc["latency"] if r["metric"] == metric), None)


def scenario_points(sc: dict[str, Any], backends: list[str]) -> dict[str, tuple[float, float]]:
    """(p95 in ms of the query steps every backend ran, else of all the tool steps they all ran;
    mean nDCG@10 over the queries the backend ran) per backend that ran at least one ranked query.

    A backend with no supported query in the scenario has no quality to plot and is left out.
    """
    ndcg, ran = _row(sc, "ndcg@10"), _row(sc, "queries_ran")
    lat = _row(sc, "latency.common_queries.p95") or _row(sc, "latency.common.p95")
    if ndcg is None or lat is None:
        return {}
    out = {}
    for b in backends:
        if ran is not None and not ran["values"].get(b):
            continue
        if lat["values"].get(b) is not None and ndcg["values"].get(b) is not None:
            out[b] = (float(lat["values"][b]), float(ndcg["values"][b]))
    return out


def plot_pareto(comparison: dict[str, Any], path: Path) -> Path | None:
    """Write one panel per scenario with ranked queries to `path` (PNG); None if there is none."""
    panels = {n: scenario_points(sc, comparison["backends"]) for n, sc in comparison["scenarios"].items()}
    panels = {n: p for n, p in panels.items() if p}
    if not panels:
        return None
    cols = min(3, len(panels))
    rows = -(-len(panels) // cols)
    fig = Figure(figsize=(5.5 * cols, 4.5 * rows), dpi=100)
    FigureCanvasAgg(fig)
    for i, (name, pts) in enumerate(panels.items(), start=1):
        ax = fig.add_subplot(rows, cols, i)
        front = pareto_front(pts)
        for j, (b, (lat, q)) in enumerate(pts.items()):
            ax.scatter([lat], [q], s=60, marker="o" if b in front else "x", zorder=3)
            # alternate label offsets so that backends with close figures stay readable
            share = (_row(comparison["scenarios"][name], "queries_ran") or {"values": {}})["values"].get(b)
            label = b if share is None or share >= 1 else f"{b} ({share:.0%} of queries)"
            ax.annotate(label, (lat, q), textcoords="offset points", xytext=(6, 4 - 12 * (j % 3)), fontsize=8)
        ax.plot([pts[b][0] for b in front], [pts[b][1] for b in front], "--", color="grey", zorder=2,
                label="Pareto front")
        ax.set_ylim(0, 1.05)  # nDCG lives in [0, 1]; a fixed axis keeps small gaps small
        ax.set_xlim(left=0)
        ax.set_title(name)
        ax.set_xlabel("p95 latency of the query steps all ran (ms, lower is better)")
        ax.set_ylabel("nDCG@10 (higher is better)")
        ax.grid(alpha=0.3)
        ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png")
    return path
