"""The quality-versus-latency view: nDCG@10 against p95 latency, with the Pareto front.

Drawn with matplotlib's Agg canvas directly (no pyplot, no global backend switch), so
it works headless and in threads.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.lines import Line2D


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


def _style(backends: list[str]) -> dict[str, Any]:
    """One colour per backend, the same in every panel (tab10, then tab20 past ten backends)."""
    cmap = matplotlib.colormaps["tab10" if len(backends) <= 10 else "tab20"]
    return {b: cmap(i % cmap.N) for i, b in enumerate(backends)}


def _marker_handles() -> list[Line2D]:
    return [
        Line2D([], [], linestyle="", marker="o", markersize=7, color="black", label="on the Pareto front"),
        Line2D([], [], linestyle="", marker="x", markersize=7, color="black", label="dominated (another is faster "
               "and at least as good)"),
        Line2D([], [], linestyle="--", color="grey", label="Pareto front")]


def plot_pareto(comparison: dict[str, Any], path: Path) -> Path | None:
    """Write `pareto_figure` to `path` (PNG); None, and no file, when no scenario has a point."""
    fig = pareto_figure(comparison)
    if fig is None:
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png")
    return path


def pareto_figure(comparison: dict[str, Any]) -> Figure | None:
    """One panel per scenario with ranked queries; None if there is none.

    Colour names the backend (one legend for the figure, so 8 or more backends stay readable:
    no label is written beside a point), marker says whether it is on the front (o) or dominated
    (x). A backend that ran only part of a scenario's queries is listed in the panel's corner
    with its share; one with no supported query is not placed (see `scenario_points`).
    """
    backends = comparison["backends"]
    panels = {n: scenario_points(sc, backends) for n, sc in comparison["scenarios"].items()}
    panels = {n: p for n, p in panels.items() if p}
    if not panels:
        return None
    colours = _style(backends)
    cols = min(3, len(panels))
    rows = -(-len(panels) // cols)
    panels_h = 4.5 * rows
    fig = Figure(figsize=(5.5 * cols, panels_h + 1.0), dpi=100)
    FigureCanvasAgg(fig)
    for i, (name, pts) in enumerate(panels.items(), start=1):
        ax = fig.add_subplot(rows, cols, i)
        front = pareto_front(pts)
        for b, (lat, q) in pts.items():
            ax.scatter([lat], [q], s=60 if b in front else 50, marker="o" if b in front else "x",
                       color=colours[b], zorder=3)
        ax.plot([pts[b][0] for b in front], [pts[b][1] for b in front], "--", color="grey", zorder=2)
        ran = (_row(comparison["scenarios"][name], "queries_ran") or {"values": {}})["values"]
        partial = [f"{b}: {ran[b]:.0%} of queries" for b in pts if ran.get(b) is not None and ran[b] < 1]
        missing = [b for b in backends if b not in pts]
        notes = partial + ([f"not placed (no supported query): {', '.join(missing)}"] if missing else [])
        if notes:
            ax.text(0.02, 0.02, "\n".join(notes), transform=ax.transAxes, fontsize=7, va="bottom",
                    bbox={"facecolor": "white", "alpha": 0.8, "edgecolor": "#ccc"})
        ax.set_ylim(0, 1.05)  # nDCG lives in [0, 1]; a fixed axis keeps small gaps small
        ax.set_xlim(left=0)
        ax.set_title(name)
        ax.set_xlabel("p95 latency of the query steps all ran (ms, lower is better)")
        ax.set_ylabel("nDCG@10 (higher is better)")
        ax.grid(alpha=0.3)
    # two legends under the panels: what the markers and the line mean, above it the backend colours
    marks = _fit_legend(fig, _marker_handles())
    names = _fit_legend(fig, [Line2D([], [], linestyle="", marker="s", markersize=8, color=colours[b], label=b)
                              for b in backends], title="backend (colour)", title_fontsize=8)
    marks_h, names_h = (_height_in(fig, lg) for lg in (marks, names))
    height = panels_h + marks_h + names_h + 0.3
    fig.set_figheight(height)
    marks.set_bbox_to_anchor((0.5, 0.05 / height), transform=fig.transFigure)
    names.set_bbox_to_anchor((0.5, (0.1 + marks_h) / height), transform=fig.transFigure)
    fig.tight_layout(rect=(0, (0.2 + marks_h + names_h) / height, 1, 1))
    return fig


def _fit_legend(fig: Figure, handles: list[Line2D], **kw: Any) -> Legend:
    """A figure legend at the bottom centre with as many columns as fit the figure's width."""
    renderer = fig.canvas.get_renderer()
    for ncol in range(len(handles), 0, -1):
        legend = fig.legend(handles=handles, loc="lower center", ncol=ncol, fontsize=8, frameon=False, **kw)
        if ncol == 1 or legend.get_window_extent(renderer).width <= 0.98 * fig.bbox.width:
            return legend
        legend.remove()
    raise AssertionError("unreachable: ncol 1 always returns")


def _height_in(fig: Figure, legend: Legend) -> float:
    return legend.get_window_extent(fig.canvas.get_renderer()).height / fig.dpi
