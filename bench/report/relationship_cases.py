"""Case by case: each planted relationship pair of a knowledge scenario, what was stored, what its texts share.

    python3 -m bench.report.relationship_cases REPORT_DIR [--scenario knowledge-history] [--list]

Reads a run's report.json (`relationships.pairs`, reports/README.md), the scenario file the run recorded
and the truth file its `score_knowledge` names; never the backend. Per (planted, stored) group it prints
how many pairs there are and what the two memories visibly share, from the truth's planted entities (what
an annotator marks in the texts): the files and the symbols they have in common (Jaccard), and the days
between the two writes (the scenario's clock). A planted type that a backend misses while its pairs share
what the pairs of another type share is one that no rule over the texts can tell apart. `--list` prints
every pair, case by case.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import pandas as pd

from bench.scenario.home import project_root
from bench.scenario.loader import load_scenario

KINDS = ("file", "symbol")


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def _writes_and_truth(scenario: Path) -> tuple[dict[str, float], dict[str, str], Path]:
    """(write time, first line of the text) of each memory alias, and the truth file of `score_knowledge`."""
    sc = load_scenario(scenario)   # validated: a malformed scenario is the loader's short error
    when: dict[str, float] = {}
    head: dict[str, str] = {}
    now, truth = sc.header.start_time, None
    for step in sc.steps:
        if step.name == "set_clock":
            now = float(step.raw_args["time"])
        elif step.name == "advance_clock":
            now += float(step.raw_args["seconds"])
        elif step.name == "score_knowledge":
            truth = scenario.parent / step.raw_args["truth"]
        elif step.name == "memory_write_structured" and step.alias:
            when[step.alias] = now
            head[step.alias] = str(step.raw_args.get("text", "")).split("\n", 1)[0]
    if truth is None:
        raise ValueError(f"{scenario}: no score_knowledge step, so no planted relationships")
    return when, head, truth


def cases(report: dict[str, Any], name: str) -> pd.DataFrame:
    """One row per planted pair: source, target, truth, detected, reason, file_j, symbol_j, days, source_text.

    The scenario file is the one the report recorded (relative to the project root when inside it)."""
    s = report.get("scenarios", {}).get(name)
    if s is None:
        raise ValueError(f"the report has no scenario {name!r}")
    pairs = (s.get("relationships") or {}).get("pairs") or []
    if not pairs:
        raise ValueError(f"scenario {name!r} of the report lists no planted relationship pairs")
    scenario = project_root() / s["file"]   # an absolute `file` stays as it is
    when, head, truth_path = _writes_and_truth(scenario)
    entities = json.loads(truth_path.read_text(encoding="utf-8")).get("entities", {})

    def of(alias: str, kind: str) -> set[str]:
        return {e for e in entities.get(alias, []) if e.startswith(kind + ":")}
    rows = []
    for p in pairs:
        a, b = p["source"], p["target"]
        rows.append({"source": a, "target": b, "truth": p["truth"], "detected": p["detected"],
                     "reason": p.get("reason", ""),
                     **{f"{k}_j": _jaccard(of(a, k), of(b, k)) for k in KINDS},
                     "days": (when.get(a, 0.0) - when.get(b, 0.0)) / 86400, "source_text": head.get(a, "")})
    return pd.DataFrame(rows)


def groups(df: pd.DataFrame) -> pd.DataFrame:
    """Per (truth, detected): pairs, and the median file and symbol Jaccard and days apart."""
    g = df.groupby(["truth", "detected"], sort=True)
    out = g.size().to_frame("pairs").join(g[[f"{k}_j" for k in KINDS] + ["days"]].median())
    return out.rename(columns={f"{k}_j": f"median {k} Jaccard" for k in KINDS} | {"days": "median days apart"})


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m bench.report.relationship_cases", description=__doc__.split("\n")[0])
    ap.add_argument("report_dir", type=Path, help="a run's output folder (holds report.json)")
    ap.add_argument("--scenario", default="knowledge-history", help="a scenario with score_knowledge")
    ap.add_argument("--list", action="store_true", help="print every planted pair, not only the groups")
    args = ap.parse_args(argv)
    try:
        report = json.loads((args.report_dir / "report.json").read_text(encoding="utf-8"))
        df = cases(report, args.scenario)
    except (OSError, ValueError, KeyError) as exc:
        print(f"relationship_cases: {exc}", file=sys.stderr)
        return 2
    with pd.option_context("display.width", 160, "display.max_rows", None, "display.max_colwidth", 60):
        print(groups(df).round(2).to_string())
        if args.list:
            print()
            listed = df.sort_values(["truth", "detected", "source"]).round(2)
            print(listed.to_string(index=False, formatters={"source_text": lambda t: f"{t[:60]:<60}"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
