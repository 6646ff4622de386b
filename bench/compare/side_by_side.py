"""The side-by-side summary of a comparison: one row per backend, the figures a reader compares first.

Per backend: the retrieval figure (quality over ranked queries alone, 0..100) beside the score, nDCG@10 of each ranked scenario, the share of checks that held over the suite,
p95 of all timed steps (median over scenarios), lost writes of the concurrent-agents census (when `compare
--agents N` ran it), and for an MCP server what the agent pays: start-up to the first answered call and
the size of its `tools/list` answer.
"""
from __future__ import annotations

from statistics import median
from typing import Any

from bench.report import Report


def side_by_side(reports: dict[str, Report], agents: dict[str, dict[str, Any]] | None = None
                 ) -> list[dict[str, Any]]:
    """Rows in the reports' order; a figure a backend does not have is None."""
    rows = []
    for spec, report in reports.items():
        scen = report.scenarios
        checks = [s["checks"] for s in scen.values() if s["checks"]["total"]]
        p95s = [s["latency_ms"].get("all", {}).get("p95") for s in scen.values()]
        surface = next((s["surface"] for s in scen.values() if s.get("surface")), {})
        census = (agents or {}).get(spec)
        rows.append({
            "backend": spec, "retrieval": report.score.get("retrieval"), "score": report.score["value"],
            "ndcg@10": {n: s["quality"].get("ndcg@10") for n, s in scen.items() if s.get("per_query")},
            "check_rate": (sum(c["passed"] for c in checks) / sum(c["total"] for c in checks)) if checks else None,
            "p95_ms": median(p for p in p95s if p is not None) if any(p is not None for p in p95s) else None,
            "lost_writes": None if census is None else (
                f"{census['lost']}/{census['acknowledged']}"
                + (f" ({census['refused']} refused)" if census.get("refused") else "")),
            "startup_ms": surface.get("startup_ms"), "tools_list_chars": surface.get("tools_list_chars"),
            "tools_list_tokens": surface.get("tools_list_tokens"),
        })
    return rows


def _fmt(v: Any, digits: int = 3) -> str:
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    if isinstance(v, int):
        return f"{v:,d}"
    return str(v)


def to_markdown(rows: list[dict[str, Any]], environment: dict[str, Any] | None = None) -> str:
    """A markdown table (the README's side-by-side table is this output)."""
    ranked = sorted({n for r in rows for n in r["ndcg@10"]})
    head = ["backend", "retrieval", "score", *(f"nDCG@10 {n}" for n in ranked), "checks", "p95 ms", "lost / acknowledged writes (agents)",
            "start-up ms", "tools/list chars (≈ tokens)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        surface = "–" if r["tools_list_chars"] is None else f"{r['tools_list_chars']:,d} ({r['tools_list_tokens']:,d})"
        cells = [f"`{r['backend']}`", _fmt(r.get("retrieval"), 2), _fmt(r["score"], 2), *(_fmt(r["ndcg@10"].get(n)) for n in ranked),
                 _fmt(r["check_rate"]), _fmt(r["p95_ms"], 1), _fmt(r["lost_writes"]), _fmt(r["startup_ms"], 0),
                 surface]
        lines.append("| " + " | ".join(cells) + " |")
    if environment:
        m = environment.get("machine", {})
        lines += ["", f"Machine: {m.get('cpu_model', 'unknown CPU')}, {m.get('cpu_count', '?')} cores, "
                      f"Python {environment.get('python', '?')}; commit {environment.get('commit', 'unknown')}, "
                      f"{environment.get('date', '')}."]
    return "\n".join(lines) + "\n"
