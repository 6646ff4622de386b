"""Print a markdown table of nDCG@10 per scenario: every report's backend, the two baselines, the spread.

    python3 -m bench.baselines.table REPORT_DIR [REPORT_DIR ...]

Each REPORT_DIR holds a `report.json` of one backend (`codemem-bench run ... --out REPORT_DIR`). The
spread is best minus worst over the backends (the baselines are shown, not counted in it). A scenario
whose queries have several categories (`quality_by_category`) gets one more row per category,
`scenario [category]`, with the baselines on that category's queries.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path


def table(reports: list[dict]) -> str:
    names = list(dict.fromkeys(n for r in reports for n in r["scenarios"]))
    head = ["scenario", *[f"`{r['backend']}`" for r in reports], "recency", "bm25", "spread"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name in names:
        got = [r["scenarios"].get(name, {}).get("quality", {}).get("ndcg@10") for r in reports]
        base = next((r["scenarios"][name].get("baselines") for r in reports
                     if r["scenarios"].get(name, {}).get("baselines")), {}) or {}
        lines.append(_row(name, got, base))
        cats = dict.fromkeys(c for r in reports for c in r["scenarios"].get(name, {}).get("quality_by_category", {}))
        for cat in cats:
            got = [r["scenarios"].get(name, {}).get("quality_by_category", {}).get(cat, {}).get("ndcg@10")
                   for r in reports]
            lines.append(_row(f"{name} [{cat}]", got, base.get("by_category", {}).get(cat, {})))
    return "\n".join(lines)


def _row(label: str, got: list[float | None], base: dict) -> str:
    vals = [g for g in got if g is not None]
    f = lambda v: "-" if v is None else f"{v:.3f}"  # noqa: E731
    return "| " + " | ".join([label, *map(f, got), f(base.get("recency", {}).get("ndcg@10")),
                              f(base.get("bm25", {}).get("ndcg@10")), f(max(vals) - min(vals) if vals else None)]) + " |"


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    reports = [json.loads((Path(a) / "report.json").read_text()) for a in argv]
    print(table(reports))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
