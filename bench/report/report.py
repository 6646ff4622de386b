"""`Report`: the result of one run of one backend over a suite of scenarios.

`to_dict()` is the versioned `report.json` schema (documented in
reports/README.md); `to_table()` is what the terminal shows; `to_markdown()`
is `report.md`; `save(dir)` writes them and `report.html` (bench/report/html.py).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from bench.report.baselines_view import baseline_columns, baseline_markdown
from bench.report.fingerprint import environment
from bench.report.score import compute_score
from bench.report.seed_view import seed_lines, seed_markdown
from bench.report.summary import confusion_table
# the person-facing surfaces (issue 16): attention list, number formats, report.html
from bench.report.attention import attention, attention_lines, in_run_order, scenario_file  # noqa: I001
from bench.report.formatting import fmt_metric, fmt_target, score_line
from bench.report.html import write_html

REPORT_SCHEMA_VERSION = 1


@dataclass
class Report:
    """One backend's run over a list of scenarios."""

    backend: str
    capabilities: list[str]
    scenarios: dict[str, dict[str, Any]]
    environment: dict[str, Any] = field(default_factory=environment)
    # {declared: the backend says its quality figures are deterministic, repetitions: how many runs agreed}
    determinism: dict[str, Any] = field(default_factory=dict)

    @property
    def score(self) -> dict[str, Any]:
        return compute_score({"scenarios": self.scenarios})

    def to_dict(self) -> dict[str, Any]:
        return {"schema": "codemem-bench/report", "schema_version": REPORT_SCHEMA_VERSION,
                "backend": self.backend, "capabilities": sorted(self.capabilities),
                "suite": list(self.scenarios), "environment": self.environment,
                **({"determinism": self.determinism} if self.determinism else {}),
                "score": self.score, "scenarios": self.scenarios}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Report":
        if data.get("schema") != "codemem-bench/report":
            raise ValueError("not a codemem-bench report (missing schema 'codemem-bench/report')")
        if data.get("schema_version") != REPORT_SCHEMA_VERSION:
            raise ValueError(f"report schema_version {data.get('schema_version')} is not "
                             f"{REPORT_SCHEMA_VERSION}; re-run with this version of codemem-bench")
        return cls(data["backend"], data["capabilities"], in_run_order(data)["scenarios"], data["environment"],
                   data.get("determinism") or {})

    @classmethod
    def load(cls, path: str | Path) -> "Report":
        path = Path(path)
        if path.is_dir():
            path = path / "report.json"
        try:
            return cls.from_dict(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"{path}: cannot read report ({exc})") from None

    def frame(self) -> pd.DataFrame:
        """One row per scenario with the headline figures."""
        rows = []
        for name, s in self.scenarios.items():
            q, lat = s["quality"], s["latency_ms"].get("all", {})
            met = [t["met"] for t in s["targets"] if t["met"] is not None]
            rows.append({
                "scenario": name,
                "recall@10": q.get("recall@10"), "ndcg@10": q.get("ndcg@10"), "mrr@10": q.get("mrr@10"),
                **baseline_columns(s),
                "checks": f"{s['checks']['passed']}/{s['checks']['total']}" if s["checks"]["total"] else "-",
                "p50 ms": lat.get("p50"), "p95 ms": lat.get("p95"),
                "targets": f"{sum(met)}/{len(met)}" if met else "-",
                "unsupported": s["steps"]["unsupported"], "problems": problem_count(s),
            })
        return pd.DataFrame(rows)

    def to_table(self) -> str:
        body = _formatted(self.frame()).to_string(index=False)
        lines = [f"backend: {self.backend}   {score_line(self.score)}", body]
        problems = attention_lines(self.scenarios, limit=10)
        lines += seed_lines(self.scenarios)
        return "\n".join(lines + (["needs attention:", *("  " + p for p in problems)] if problems else []))

    def to_markdown(self) -> str:
        df = _formatted(self.frame())
        lines = [f"# codemem-bench report: `{self.backend}`", "", f"**{score_line(self.score)}** "
                 "(rules: SCORING.md)", "", _md_table(df), ""]
        items = attention(self.scenarios)
        if items:
            lines += ["## Needs attention", "", *(f"- `{i.where}` {i.kind}: {i.message}" for i in items[:50]),
                      *([f"- ... and {len(items) - 50} more (report.html)"] if len(items) > 50 else []), ""]
        for name, s in self.scenarios.items():
            lines += [f"## {name}", "", s["description"], "", *baseline_markdown(s, self.backend), *seed_markdown(s)]
            if s["targets"]:
                lines += ["| target | value | met | source |", "|---|---|---|---|"]
                lines += [f"| {fmt_target(t)} | {fmt_metric(t['metric'], t['value'])} | "
                          f"{'yes' if t['met'] else 'no' if t['met'] is False else '-'} | {t['source']} |"
                          for t in s["targets"]]
                lines.append("")
            if s["metrics"]:
                lines += ["| metric | value |", "|---|---|"]
                lines += [f"| {k} | {fmt_metric(k, v)} |" for k, v in s["metrics"].items()]
                lines.append("")
            lines += confusion_markdown(s.get("relationships") or {})
            for p in s["problems"][:10]:
                lines.append(f"- {scenario_file(name, s)}:{p['line']} `{p['step']}` {p['status']}: {p['message']}")
            if s["unsupported"]:
                lines.append(f"- unsupported steps: {s['unsupported']}")
            lines.append("")
        return "\n".join(lines)

    def save(self, out_dir: str | Path, earlier: list[dict[str, Any]] | None = None) -> Path:
        """Write report.json, report.md, report.html and run.json; the path of report.json.

        `earlier`: run.json dicts of this backend's kept runs before this one, oldest first
        (bench/report/runs.py), for report.html's trend."""
        from bench.report.runs import write_run_figures
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        data = self.to_dict()
        (out / "report.json").write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
        (out / "report.md").write_text(self.to_markdown())
        write_run_figures(out, data)
        write_html(out, data, trend=trend_points(out, data, earlier))
        return out / "report.json"


def trend_points(out: Path, data: dict[str, Any], earlier: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """The trend's runs: the earlier kept ones (without this folder's own entry) and this run last."""
    from bench.report.runs import run_figures
    return [p for p in earlier or [] if p.get("folder") != out.name] + [run_figures(data, out.name)]


def confusion_markdown(rels: dict[str, Any]) -> list[str]:
    """The planted relationships' confusion as a markdown table (`summary.confusion_table`)."""
    head, rows = confusion_table(rels)
    if not rows:
        return []
    return ["| " + " | ".join(head) + " |", "|---" * len(head) + "|", *("| " + " | ".join(r) + " |" for r in rows), ""]


def problem_count(s: dict[str, Any]) -> int:
    """Failed and erroring operations and directives, plus writes the census could not read back."""
    d = s.get("directives", {})
    return (s["steps"]["error"] + s["steps"]["failed"] + d.get("error", 0) + d.get("failed", 0)
            + s.get("census", {}).get("lost", 0))


def _formatted(df: pd.DataFrame) -> pd.DataFrame:
    """Every cell as text, by its column's unit (bench/report/formatting.py)."""
    return pd.DataFrame({c: [fmt_metric(str(c), v) for v in df[c]] for c in df.columns}, columns=df.columns)


def _md_table(df: pd.DataFrame) -> str:
    head = "| " + " | ".join(df.columns) + " |"
    sep = "|" + "---|" * len(df.columns)
    rows = ["| " + " | ".join(str(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join([head, sep, *rows])
