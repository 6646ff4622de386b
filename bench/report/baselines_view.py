"""How a report shows the recency and BM25 baselines (bench/baselines) beside a backend's figures."""
from __future__ import annotations

from typing import Any

_METRICS = ("recall@10", "ndcg@10", "mrr@10")


def baseline_columns(s: dict[str, Any]) -> dict[str, float | None]:
    """Terminal-table columns: each baseline's nDCG@10 (None when the scenario has no rankable query)."""
    b = s.get("baselines") or {}
    return {"bm25": b.get("bm25", {}).get("ndcg@10"), "recency": b.get("recency", {}).get("ndcg@10")}


def baseline_markdown(s: dict[str, Any], backend: str) -> list[str]:
    """A scenario section's table: the backend, recency and BM25 on the same queries, and the lift over BM25."""
    b = s.get("baselines")
    if not b:
        return []
    q = s.get("quality", {})
    f = lambda v: "-" if v is None else f"{v:.3f}"  # noqa: E731
    lines = ["| ranker | " + " | ".join(_METRICS) + " | queries |", "|---|" + "---|" * (len(_METRICS) + 1),
             f"| `{backend}` | " + " | ".join(f(q.get(m)) for m in _METRICS) + f" | {q.get('queries', '-')} |"]
    for name in ("recency", "bm25"):
        lines.append(f"| baseline: {name} | " + " | ".join(f(b[name].get(m)) for m in _METRICS)
                     + f" | {b[name]['queries']} |")
    lift = b.get("lift_over_bm25", {}).get("ndcg@10")
    lines += ["", f"nDCG@10 lift over BM25: {'-' if lift is None else f'{lift:+.3f}'}"]
    for t in s.get("targets", []):
        if t["metric"] == "ndcg@10":
            lines.append(f"(target ndcg@10 {t['op']} {t['target']}: BM25 alone gets {f(b['bm25']['ndcg@10'])}, "
                         f"so the target asks for a lift of {t['target'] - b['bm25']['ndcg@10']:+.3f})")
    return [*lines, ""]
