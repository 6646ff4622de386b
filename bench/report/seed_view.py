"""How a report shows the seed-default figures beside the tuned ones (bench/seed_defaults.py).

A scenario section may hold `seed_defaults`: `{"backend": spec, "figures": {figure: {"tuned": x, "seed": y}}}`.
The terminal gets one line per such scenario, report.md a table in the scenario's section and
report.html one table for the whole run.
"""
from __future__ import annotations

from html import escape
from typing import Any

from bench.report.formatting import fmt_metric

INTRO = ("The reference's fitted constants (Memory Lane floors, UPDATE_THRESHOLD, RELATE_THRESHOLD, DECAY_WEIGHT; "
         "fitted on the calibration split by bench/calibration/knowledge.py) at the seeds' values instead")


def _cells(name: str, fig: dict[str, Any]) -> tuple[str, str, str]:
    t, s = fig.get("tuned"), fig.get("seed")
    diff = "-" if t is None or s is None else f"{t - s:+.3f}"
    return fmt_metric(name, t), fmt_metric(name, s), diff


def seed_lines(scenarios: dict[str, dict[str, Any]]) -> list[str]:
    """Terminal lines: `scenario: figure tuned / seed; ...` for each scenario that has seed figures."""
    rows = [(n, s["seed_defaults"]) for n, s in scenarios.items() if s.get("seed_defaults")]
    if not rows:
        return []
    out = [f"tuned vs seed defaults ({rows[0][1]['backend']}):"]
    for name, sd in rows:
        parts = [f"{f} {t} / {s}" for f, fig in sd["figures"].items() for t, s, _ in [_cells(f, fig)]]
        out.append(f"  {name}: " + "; ".join(parts))
    return out


def seed_markdown(s: dict[str, Any]) -> list[str]:
    """A scenario section's table of tuned and seed-default figures (nothing when it has none)."""
    sd = s.get("seed_defaults")
    if not sd:
        return []
    lines = [f"{INTRO} (`{sd['backend']}`):", "", "| figure | tuned | seed defaults | tuned − seed |", "|---|---|---|---|"]
    lines += [f"| {f} | " + " | ".join(_cells(f, fig)) + " |" for f, fig in sd["figures"].items()]
    return [*lines, ""]


def seed_html(report: dict[str, Any], table) -> str:
    """The report.html section (empty when no scenario has seed figures); `table(head, rows)` draws a table."""
    rows = [[name, f, *_cells(f, fig)] for name, s in report["scenarios"].items() if s.get("seed_defaults")
            for f, fig in s["seed_defaults"]["figures"].items()]
    if not rows:
        return ""
    spec = next(s["seed_defaults"]["backend"] for s in report["scenarios"].values() if s.get("seed_defaults"))
    return ('<section id="seed-defaults"><h2>Tuned vs seed defaults</h2>'
            f"<p>{escape(INTRO)}: <code>{escape(spec)}</code>, replayed on the scenarios they affect.</p>"
            + table(["scenario", "figure", "tuned", "seed defaults", "tuned − seed"], rows) + "</section>")
