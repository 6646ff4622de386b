"""The side-by-side summary of a comparison: one row per backend, the figures a reader compares first.

Per backend: the retrieval figure (quality over ranked queries alone, 0..100) beside the score, nDCG@10 of each ranked scenario, the share of checks that held over the suite,
p95 of all timed steps (median over scenarios), lost writes of the concurrent-agents census (when `compare
--agents N` ran it), and for an MCP server what the agent pays: start-up to the first answered call and
the size of its `tools/list` answer. Below the backends, `baseline_rows` adds the harness's recency and
BM25 baselines (`bench/baselines`: computed on each scenario's own queries, no backend involved), and
`readme_doc` turns the rows into the file the README's table is written from
(`reports/readme/side_by_side.json`, `python3 -m bench.report.readme_figures --side-by-side RUN_DIR`).
"""
from __future__ import annotations

from statistics import median
from typing import Any

from bench.baselines import BASELINES
from bench.report import Report

BASELINE_LABEL = {"bm25": "BM25 baseline", "recency": "recency baseline"}


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
            "ndcg@10": {n: ndcg_or_none(s) for n, s in scen.items() if s.get("per_query")},
            "check_rate": (sum(c["passed"] for c in checks) / sum(c["total"] for c in checks)) if checks else None,
            "p95_ms": median(p for p in p95s if p is not None) if any(p is not None for p in p95s) else None,
            "lost_writes": _lost(census),
            "startup_ms": surface.get("startup_ms"), "tools_list_chars": surface.get("tools_list_chars"),
            "tools_list_tokens": surface.get("tools_list_tokens"),
        })
    return rows


def ndcg_or_none(summary: dict[str, Any]) -> float | None:
    """A scenario's nDCG@10, or None when the backend could run none of its ranked queries (every one
    `unsupported`): the tables show `–` there, not a 0.000 that reads as searching badly."""
    if all(q.get("unsupported") for q in summary.get("per_query") or []):
        return None
    return summary["quality"].get("ndcg@10")


def _lost(census: dict[str, Any] | None) -> str | None:
    """`lost/acknowledged (k refused)`; a census whose agents could not all open one store says so."""
    if census is None:
        return None
    if "error" in census:   # compare keeps the error; the census module raises this one when a store is locked
        if "did not all open the store" in census["error"]:
            return f"not run: {census['agents']} processes cannot open one store"
        return "not run: error (agents/ in the run folder)"
    refused = f" ({census['refused']} refused)" if census.get("refused") else ""
    if census.get("unverifiable"):   # no memory.get: nothing could be read back, so nothing is counted lost
        return f"{census['unverifiable']} unverifiable (no get){refused}"
    return f"{census['lost']}/{census['acknowledged']}{refused}"


def baseline_rows(reports: dict[str, Report]) -> list[dict[str, Any]]:
    """One row per harness baseline (BM25, then recency): nDCG@10 of each ranked scenario, nothing else.

    The baselines depend on the scenarios alone, so every report holds the same figures; they are read
    from the first report that has them for each scenario."""
    per: dict[str, dict[str, float]] = {b: {} for b in BASELINES}
    for report in reports.values():
        for name, s in report.scenarios.items():
            for b in BASELINES:
                v = ((s.get("baselines") or {}).get(b) or {}).get("ndcg@10")
                if v is not None:
                    per[b].setdefault(name, v)
    return [{"backend": BASELINE_LABEL[b], "baseline": True, "retrieval": None, "score": None, "ndcg@10": per[b],
             "check_rate": None, "p95_ms": None, "lost_writes": None, "startup_ms": None, "tools_list_chars": None,
             "tools_list_tokens": None} for b in ("bm25", "recency") if per[b]]


def readme_doc(rows: list[dict[str, Any]], environment: dict[str, Any], *, command: str, suite: str,
               agents: int, minutes: float, cut: int | None, load: list[float]) -> dict[str, Any]:
    """The README's side-by-side file: every row's figures rounded as the table shows them, and the run's
    command, commit, machine, date, wall time, load and cut (bench/report/readme_figures.py renders it)."""
    machine = environment.get("machine") or {}
    out_rows = []
    for r in rows:
        surface = None if r["tools_list_chars"] is None else f"{r['tools_list_chars']:,d} ({r['tools_list_tokens']:,d})"
        out_rows.append({
            "backend": r["backend"], "baseline": bool(r.get("baseline")),
            "retrieval": None if r.get("retrieval") is None else round(r["retrieval"], 2),
            "score": None if r["score"] is None else round(r["score"], 2),
            "ndcg@10": {n: None if v is None else round(v, 3) for n, v in r["ndcg@10"].items()},
            "check_rate": None if r["check_rate"] is None else round(r["check_rate"], 3),
            "p95 ms": None if r["p95_ms"] is None else round(r["p95_ms"], 1),
            f"lost / acknowledged writes ({agents} agents)": r["lost_writes"],
            "start-up ms": None if r["startup_ms"] is None else round(r["startup_ms"]),
            "tools/list chars (≈ tokens)": surface,
        })
    commit = str(environment.get("commit") or "unknown")
    return {"command": command, "commit": commit.split("+")[0][:7] + ("+dirty" if "+dirty" in commit else ""),
            "date": str(environment.get("date") or "")[:10], "suite": suite, "cut": cut, "agents": agents,
            "machine": f"{machine.get('cpu_model', 'unknown CPU')}, {machine.get('cpu_count', '?')} cores, "
                       f"{machine.get('python', '?')}",
            "minutes": round(minutes, 1), "load": [round(x, 1) for x in load], "figure": "ndcg@10",
            "rows": out_rows}


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
        name = f"*{r['backend']}*" if r.get("baseline") else f"`{r['backend']}`"   # a harness baseline, no backend
        cells = [name, _fmt(r.get("retrieval"), 2), _fmt(r["score"], 2), *(_fmt(r["ndcg@10"].get(n)) for n in ranked),
                 _fmt(r["check_rate"]), _fmt(r["p95_ms"], 1), _fmt(r["lost_writes"]), _fmt(r["startup_ms"], 0),
                 surface]
        lines.append("| " + " | ".join(cells) + " |")
    if environment:
        m = environment.get("machine", {})
        lines += ["", f"Machine: {m.get('cpu_model', 'unknown CPU')}, {m.get('cpu_count', '?')} cores, "
                      f"Python {environment.get('python', '?')}; commit {environment.get('commit', 'unknown')}, "
                      f"{environment.get('date', '')}."]
    return "\n".join(lines) + "\n"
