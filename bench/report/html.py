"""report.html: one self-contained page a person reads (inline CSS, plots as base64 PNG, no network).

Order: the score and what it is made of; what needs attention (unmet targets, failed steps,
each with scenario file and line); the change against a saved run (with `run --compare`);
per-scenario quality (beside the recency/BM25 baselines when the report has them); the
reference's tuned figures beside its seed-default ones (when the run has them); the run beside the committed
figures (reference baseline, the README's peers) and its trend over kept runs (standing.py); latency plots;
each scenario's targets and metrics; the machine, commit and date. Numbers follow bench/report/formatting.py.
The only links are relative ones to files of the project (SCORING.md, the scenario files of `file:line`
cells). Tables wrap their text cells so that none is wider than a 1280 px window.
"""
from __future__ import annotations

import base64
import os
import re
from html import escape
from pathlib import Path
from typing import Any

from bench.report.attention import attention, in_run_order, scenario_file
from bench.report.formatting import fmt_bytes, fmt_metric, fmt_ms, fmt_rate, fmt_score, fmt_target
from bench.report.history import change_cells
from bench.report.plots import latency_boxplot, latency_ecdf
from bench.report.quality_plots import quality_chart
from bench.report.seed_view import seed_html
from bench.report.summary import confusion_table
from bench.report.standing import beside_committed_html, trend_html

# one line each, from SCORING.md (the full rules and their rationale are there)
COMPONENT_RULES = {
    "quality": "mean nDCG@10 over each scenario's ranked queries; a query the backend could not run counts 0",
    "correctness": "share of pass/fail checks that passed (check_rate), the write census included",
    "targets": "share of each scenario's seed targets that were met; a target whose operations never ran is not met",
    "coverage": "1 − unsupported operations / all operations (directives are not operations)",
    "latency": "Σ over op kinds of (operations done / all operations) × min(1, budget / p95 of those done); an "
               "operation not done (unsupported, raised, a ranked query answered with nothing) earns 0",
}

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px auto;max-width:1180px;color:#222;padding:0 16px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;border-bottom:1px solid #ddd;padding-bottom:3px;margin-top:28px}
h3{font-size:15px;margin:18px 0 6px}.meta{color:#555}
.score{font-size:44px;font-weight:700;margin:8px 0}.score small{font-size:15px;font-weight:400;color:#555}
table{border-collapse:collapse;margin:6px 0 10px;max-width:100%}
th,td{border:1px solid #ddd;padding:3px 8px;text-align:left}td.w{overflow-wrap:anywhere}
th{background:#f4f4f4}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.bad{color:#b00020;font-weight:600}.ok{color:#1b7a2e}.warn{background:#fff4f4}
.none{color:#1b7a2e;font-weight:600}code{font-size:13px}img{max-width:100%;border:1px solid #eee}
"""


_LONG = 32   # characters from which a text cell may wrap inside a word
_FIGURE = re.compile(r"[-+]?[\d,.]+( [KMGT]?i?B)?|[-+]?[\d,.]+/[\d,.]+|-")


class Link(str):
    """A cell's text that links to `href` (a relative path into the project), e.g. a `file:line` cell."""

    href: str | None = None

    def __new__(cls, text: str, href: str | None) -> "Link":
        obj = super().__new__(cls, text)
        obj.href = href
        return obj


def _td(text: str, cls: str = "") -> str:
    inner = escape(text)
    if isinstance(text, Link) and text.href:
        inner = f'<a href="{escape(text.href)}">{inner}</a>'
    return f'<td class="{cls}">{inner}</td>' if cls else f"<td>{inner}</td>"


def _cls(cell: str) -> str:
    """Figures right-aligned and unbroken; a long text (a message, a path) may wrap anywhere, so one long
    token cannot widen its table past the window; short text wraps only between words."""
    return "n" if _FIGURE.fullmatch(cell) else "w" if len(cell) > _LONG else ""


def _table(head: list[str], rows: list[list[str]]) -> str:
    """A table whose figure cells (numbers, `3/4`, `-`, `7.6 MiB`) are right-aligned, text left; a `Link`
    cell links to its file."""
    h = "".join(f"<th>{escape(c)}</th>" for c in head)
    body = "".join("<tr>" + "".join(_td(c, _cls(c)) for c in r) + "</tr>" for r in rows)
    return f"<table><tr>{h}</tr>{body}</table>" if head else f"<table>{body}</table>"


def _score(report: dict[str, Any], scoring_href: str | None) -> str:
    sc = report.get("score") or {}
    comps, weights = sc.get("components") or {}, sc.get("weights") or {}
    total_w = sum(weights.get(k, 0) for k in comps) or 1
    rows = [[k, fmt_rate(weights.get(k)), fmt_rate(v), f"{100 * weights.get(k, 0) * v / total_w:.2f}",
             COMPONENT_RULES.get(k, "")] for k, v in comps.items()]
    rules = (f'<a href="{escape(scoring_href)}">SCORING.md</a>' if scoring_href else "SCORING.md at the repository root")
    retrieval = (f'<div class="score">{fmt_score(sc["retrieval"])} <small>retrieval (nDCG@10 over the ranked '
                 'queries alone, 0–100)</small></div>') if "retrieval" in sc else ""
    return (f'<section id="score">{retrieval}<div class="score">{fmt_score(sc.get("value"))} <small>codemem-bench '
            f'score v{escape(str(sc.get("version")))} (0–100)</small></div>'
            "<p>score = 100 × Σ weight·value / Σ weight over the components present; each value is the mean "
            f"over the scenarios where it applies. Rules: {rules}.</p>"
            + _table(["component", "weight", "value", "points", "how it is measured"], rows) + "</section>")


def _attention(report: dict[str, Any], links: dict[str, str]) -> str:
    items = attention(report["scenarios"])
    if not items:
        return '<section id="attention"><h2>Needs attention</h2><p class="none">Every target met; every check ' \
               "ran and passed; no lost write.</p></section>"
    rows = [[Link(i.where, links.get(i.where.rsplit(":", 1)[0])), i.kind, i.message] for i in items[:200]]
    more = f"<p>… and {len(items) - 200} more in report.json.</p>" if len(items) > 200 else ""
    return (f'<section id="attention"><h2 class="bad">Needs attention ({len(items)})</h2>'
            "<p>Unmet targets first, then failed or erroring steps and lost writes, then checks that did not run "
            "(the backend lacks the capability): every check that did not pass. file:line links to the scenario "
            "file (a target is declared in the scenario's header, line 1).</p>"
            + _table(["scenario file:line", "kind", "what"], rows) + more + "</section>")


def _changes(rows: list[dict[str, Any]] | None, name: str | None) -> str:
    if rows is None:
        return ""
    head = ["scenario", "figure", "saved", "now", "change"]
    moved = [r for r in rows if r["change"] is None or abs(r["change"]) > 1e-12]
    same = [r for r in rows if r not in moved]
    table = _table(head, [[r["scope"], r["figure"], *change_cells(r)] for r in moved]) if moved else \
        "<p>No figure changed.</p>"
    rest = (f"<details><summary>{len(same)} unchanged figures</summary>"
            + _table(head, [[r["scope"], r["figure"], *change_cells(r)] for r in same]) + "</details>") if same else ""
    return (f'<section id="changes"><h2>Change against saved run <code>{escape(name or "")}</code></h2>'
            "<p>Plain differences (now − saved), not a significance test (for that: <code>codemem-bench gate "
            f"REPORT --baseline reports/history/{escape(name or '')}</code>); a figure only one run has shows "
            "<code>-</code> for the other.</p>" + table + rest + "</section>")


def _quality(report: dict[str, Any], links: dict[str, str]) -> str:
    scen = report["scenarios"]
    has_base = any(s.get("baselines") for s in scen.values())
    head = ["scenario (file)", "queries", "recall@10", "nDCG@10", "MRR@10"]
    head += ["nDCG@10 recency", "nDCG@10 BM25"] if has_base else []
    head += ["checks", "targets met", "p50 ms", "p95 ms", "budget ms", "storage"]
    rows = []
    for name, s in scen.items():
        q, lat, b = s.get("quality") or {}, (s.get("latency_ms") or {}).get("all", {}), s.get("baselines") or {}
        met = [t["met"] is True for t in s.get("targets", [])]
        checks = s.get("checks") or {}
        row = [Link(name, links.get(scenario_file(name, s))), fmt_metric("queries", q.get("queries")),
               fmt_rate(q.get("recall@10")), fmt_rate(q.get("ndcg@10")), fmt_rate(q.get("mrr@10"))]
        if has_base:
            row += [fmt_rate(b.get("recency", {}).get("ndcg@10")), fmt_rate(b.get("bm25", {}).get("ndcg@10"))]
        row += [f"{checks['passed']}/{checks['total']}" if checks.get("total") else "-",
                f"{sum(met)}/{len(met)}" if met else "-", fmt_ms(lat.get("p50")), fmt_ms(lat.get("p95")),
                fmt_ms(s.get("latency_budget_ms")), fmt_bytes(s.get("storage_bytes"))]
        rows.append(row)
    note = "" if has_base else "<p>This report has no recency/BM25 baselines.</p>"
    chart = quality_chart(scen, report["backend"])
    chart_html = ("<p>nDCG@10 of each scenario with ranked queries beside the recency and BM25 baselines on the "
                  "same queries, and the seed's target where the scenario declares one: above BM25 is what the "
                  "backend adds over plain keyword matching.</p>" + _img(chart, "quality per scenario")) if chart else ""
    return ('<section id="quality"><h2>Per-scenario quality</h2>' + chart_html + _table(head, rows) + note
            + "</section>")


def _img(png: bytes | None, alt: str) -> str:
    if png is None:
        return f"<p>No data for the {escape(alt)}.</p>"
    return f'<img alt="{escape(alt)}" src="data:image/png;base64,{base64.b64encode(png).decode("ascii")}">'


def _latency(report: dict[str, Any]) -> str:
    scen = report["scenarios"]
    return ('<section id="latency"><h2>Latency</h2><p>Per-operation timings of every repetition (the report\'s '
            "<code>latency_samples_ms</code>; directives left out).</p>"
            + _img(latency_boxplot(scen), "latency box plot per scenario")
            + _img(latency_ecdf(scen), "latency ECDF per scenario") + "</section>")


def _details(report: dict[str, Any], links: dict[str, str]) -> str:
    parts = ['<section id="scenarios"><h2>Scenarios</h2>']
    for name, s in report["scenarios"].items():
        where, href = scenario_file(name, s), links.get(scenario_file(name, s))
        ref = f'<a href="{escape(href)}">{escape(where)}</a>' if href else escape(where)
        parts.append(f"<h3>{escape(name)} <small class=meta>{ref}</small></h3>"
                     f"<p>{escape(s.get('description', ''))}</p>")
        if s.get("targets"):
            rows = [[fmt_target(t), fmt_metric(t["metric"], t["value"]),
                     "yes" if t["met"] else "no" if t["met"] is False else "-", t["source"]] for t in s["targets"]]
            parts.append(_table(["target", "value", "met", "source"], rows))
        if s.get("metrics"):
            parts.append(_table(["metric", "value"], [[k, fmt_metric(k, v)] for k, v in s["metrics"].items()]))
        head, rows = confusion_table(s.get("relationships") or {})
        if rows:
            parts.append(_table(head, rows))
        if s.get("unsupported"):
            parts.append("<p>Unsupported: " + escape(", ".join(f"{k} ({v})" for k, v in s["unsupported"].items()))
                         + "</p>")
    return "".join(parts) + "</section>"


def _environment(report: dict[str, Any]) -> str:
    env = report.get("environment") or {}
    m = env.get("machine") or {}
    rows = [["date (UTC)", env.get("date", "unknown")], ["commit", env.get("commit", "unknown")],
            ["CPU", f"{m.get('cpu_model', 'unknown')} × {m.get('cpu_count', '?')}"],
            ["system", f"{m.get('system', '?')} {m.get('arch', '')} ({env.get('platform', '?')})"],
            ["host", m.get("hostname", "?")], ["python", m.get("python", env.get("python", "?"))],
            ["packages", ", ".join(f"{k} {v}" for k, v in (env.get("packages") or {}).items())]]
    return '<section id="environment"><h2>Machine, commit, date</h2>' + _table([], rows) + "</section>"


def render_html(report: dict[str, Any], changes: list[dict[str, Any]] | None = None,
                compared_to: str | None = None, scoring_href: str | None = None,
                trend: list[dict[str, Any]] | None = None, root: Path | None = None,
                links: dict[str, str] | None = None) -> str:
    """The whole page for a report.json dict (and optionally its changes against a saved run).

    `trend`: run.json dicts of the backend's kept runs, oldest first, this run last (bench/report/runs.py);
    `root`: the project folder holding the committed figures (standing.py); `links`: scenario file (as the
    report records it) -> relative href."""
    from bench.report.runs import run_figures
    report = in_run_order(report)
    links = links or {}
    trend = trend if trend is not None else [run_figures(report, "this run")]
    env = report.get("environment") or {}
    title = f"codemem-bench report: {report['backend']}"
    head = (f"<h1>{escape(title)}</h1><p class=meta>{escape(str(env.get('date', 'date unknown')))} · commit "
            f"<code>{escape(str(env.get('commit', 'unknown'))[:12])}</code> · "
            f"{escape(str((env.get('machine') or {}).get('hostname', '')))} · "
            f"{len(report['scenarios'])} scenarios</p>")
    standing = beside_committed_html(report, root, _table) if root is not None else ""
    body = (head + _score(report, scoring_href) + _attention(report, links) + _changes(changes, compared_to)
            + _quality(report, links) + standing + trend_html(trend, _img) + seed_html(report, _table)
            + _latency(report) + _details(report, links) + _environment(report))
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            f"<style>{_CSS}</style></head><body>{body}</body></html>\n")


def _relative(target: Path, out_dir: Path) -> str | None:
    """`target` relative to the report's folder (real path: a `reports/latest/<backend>` link sits at the
    same depth as the run folder it points to), or None when there is none (another drive) or no file."""
    try:
        return Path(os.path.relpath(target, out_dir.resolve())).as_posix() if target.is_file() else None
    except ValueError:  # another drive (Windows): no relative path, the file stays named in the text
        return None


def write_html(out_dir: Path, report: dict[str, Any], changes: list[dict[str, Any]] | None = None,
               compared_to: str | None = None, trend: list[dict[str, Any]] | None = None) -> Path:
    """Write `out_dir/report.html`, linking SCORING.md and the scenario files by relative paths."""
    from bench.scenario.home import project_root
    root = project_root()
    files = {scenario_file(n, s) for n, s in (report.get("scenarios") or {}).items()}
    links = {f: h for f in files if (h := _relative(Path(f) if Path(f).is_absolute() else root / f, out_dir))}
    path = out_dir / "report.html"
    path.write_text(render_html(report, changes, compared_to, _relative(root / "SCORING.md", out_dir), trend, root,
                                links), encoding="utf-8")
    return path
