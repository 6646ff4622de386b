"""Text forms of a comparison: the terminal table and `comparison.md`.

Each cell of a non-reference backend shows its value and the difference from the
reference; `*` marks a difference that is significant at the comparison's alpha
(after Holm's correction), `↑`/`↓` in the metric column says which way is better.
Quality differences are over the queries both backends ran (`queries_ran` shows how many).
"""
from __future__ import annotations

from typing import Any

import pandas as pd

from bench.report.formatting import fmt_metric, fmt_score, fmt_signed

_ARROW = {"higher": "↑", "lower": "↓"}


def _cell(row: dict[str, Any], backend: str, with_p: bool) -> str:
    v = row["values"].get(backend)
    vs = row["vs_reference"].get(backend)
    m = row["metric"]
    if vs is None or v is None or vs.get("diff") is None:
        return fmt_metric(m, v)
    star = "*" if vs.get("significant") else ""
    p = vs.get("p_holm")
    tail = f", p={p:.3g}" if with_p and p is not None else ""
    return f"{fmt_metric(m, v)} ({fmt_signed(m, vs['diff'])}{star}{tail})"


def rows_frame(rows: list[dict[str, Any]], backends: list[str], with_p: bool = False) -> pd.DataFrame:
    """One line per metric, one column per backend."""
    data = [{"metric": f"{r['metric']} {_ARROW[r['direction']]}",
             **{b: _cell(r, b, with_p) for b in backends}} for r in rows]
    return pd.DataFrame(data, columns=["metric", *backends])


def _scenario_rows(sc: dict[str, Any]) -> list[dict[str, Any]]:
    return [*sc["quality"], *sc["scenario"], *sc["latency"]]


def to_table(comparison: dict[str, Any]) -> str:
    """What the terminal shows: one block per scenario."""
    backends = comparison["backends"]
    out = [f"reference: {comparison['reference']}   * = significant at alpha {comparison['test']['alpha']} "
           "(Holm-corrected)   retrieval | score: " + ", ".join(
               f"{b} {fmt_score(comparison.get('retrieval', {}).get(b))} | {fmt_score(comparison['score'][b])}"
               for b in backends)]
    for name, sc in comparison["scenarios"].items():
        out += ["", f"== {name} ({sc['queries']} queries)",
                rows_frame(_scenario_rows(sc), backends).to_string(index=False)]
        excluded = sc.get("latency_steps", {}).get("excluded", {})
        if excluded:
            out.append(f"latency leaves out {len(excluded)} step type(s) not run by every backend alike: "
                       f"{', '.join(list(excluded)[:5])}{' ...' if len(excluded) > 5 else ''}")
    return "\n".join(out)


def _md(df: pd.DataFrame) -> str:
    head = "| " + " | ".join(df.columns) + " |"
    sep = "|" + "---|" * len(df.columns)
    return "\n".join([head, sep, *("| " + " | ".join(str(v) for v in row) + " |" for row in df.itertuples(index=False))])


def to_markdown(comparison: dict[str, Any]) -> str:
    """`comparison.md`: method, scores, then per scenario the metrics, categories and latency."""
    backends = comparison["backends"]
    t = comparison["test"]
    lines = [f"# codemem-bench comparison: {', '.join(f'`{b}`' for b in backends)}", "",
             f"Reference: `{comparison['reference']}`. Each cell of another backend shows its value and the "
             "difference from the reference, with the Holm-corrected p-value; `*` marks a significant "
             f"difference at alpha {t['alpha']}. ↑ higher is better, ↓ lower is better. A quality value is the "
             "mean over the queries that backend ran; its difference and test are over the queries both ran "
             "(`queries_ran`: the share each ran).", "",
             f"- quality: {t['quality']} (seed {t['seed']}, {t['permutations']} permutations when not exact)",
             f"- latency: {t['latency']}", "",
             "| backend | retrieval (nDCG@10 over ranked queries, ×100) | codemem-bench score |", "|---|---|---|",
             *(f"| `{b}` | {fmt_score(comparison.get('retrieval', {}).get(b))} | {fmt_score(comparison['score'][b])} |"
               for b in backends), ""]
    for name, sc in comparison["scenarios"].items():
        reps = ", ".join(f"{b} {n}" for b, n in sc["repetitions"].items())
        lines += [f"## {name}", "", f"{sc['queries']} ranked queries; repetitions: {reps}.", ""]
        if sc["quality"]:
            lines += ["### Quality", "", _md(rows_frame(sc["quality"], backends, True)), ""]
        for cat, rows in sc["quality_by_category"].items():
            lines += [f"#### Category `{cat}`", "", _md(rows_frame(rows, backends, True)), ""]
        lines += ["### Checks, coverage, storage", "", _md(rows_frame(sc["scenario"], backends)), ""]
        if sc["latency"]:
            lines += ["### Latency (ms)", "", "Percentiles of the per-step samples (all repetitions) of the "
                      "tool step types every backend ran; each percentile has its own test.", "",
                      _md(rows_frame(sc["latency"], backends, True)), ""]
        excluded = sc.get("latency_steps", {}).get("excluded", {})
        if excluded:
            lines += ["Left out of latency (not run by every backend alike): " +
                      "; ".join(f"`{k}` ({v})" for k, v in excluded.items()), ""]
    return "\n".join(lines)
