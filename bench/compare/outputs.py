"""Write everything `compare` produces into one folder."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.compare.pareto import plot_pareto
from bench.compare.render import to_markdown
from bench.compare.runner import slug
from bench.export import export_trec
from bench.report import Report
from bench.scenario.model import Scenario


def write_outputs(comparison: dict[str, Any], reports: dict[str, Report], scenarios: list[Scenario],
                  out_dir: Path) -> dict[str, Any]:
    """comparison.json, comparison.md, pareto.png and trec/; returns what was written (relative paths).

    The paths are also recorded in comparison.json under `files`.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    trec = export_trec(out_dir / "trec", scenarios, {b: r.scenarios for b, r in reports.items()})
    png = plot_pareto(comparison, out_dir / "pareto.png")
    files = {"reports": {b: f"{slug(b)}/report.json" for b in reports},
             "markdown": "comparison.md", "pareto": "pareto.png" if png else None,
             "trec": {name: {k: f"trec/{v}" for k, v in f.items()} for name, f in trec.items()}}
    comparison = {**comparison, "files": files}
    (out_dir / "comparison.json").write_text(json.dumps(comparison, indent=2, sort_keys=True) + "\n")
    (out_dir / "comparison.md").write_text(to_markdown(comparison))
    return files
