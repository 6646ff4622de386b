"""Quality side of the gate: exact for deterministic backends, a paired test for the others.

Deterministic backends (both reports' `determinism.declared`, e.g. the reference): an unchanged
backend reproduces every per-query figure exactly, so any drop of a gated metric's mean beyond
`EXACT_TOLERANCE` (floating-point noise) is a regression, however few queries moved; the finding
names the queries that changed. Nondeterministic backends: a ranking metric regresses when its
mean gets worse by more than `min_effect` (absolute) AND the paired randomisation test,
Holm-corrected over the scenario's metrics, gives p < alpha. Scenario-level figures without
per-item data (check rate, coverage, extra metrics) regress on the tolerance (exact) or on the
minimal effect alone; for a deterministic backend a figure of the baseline that the run no longer has
is a regression too (for the others, a note), and so is storage that grows past `STORAGE_GROWTH` and
`STORAGE_SLACK` (storage is not gated for the others).
"""
from __future__ import annotations

from statistics import fmean
from typing import Any

from bench.compare.direction import worse_by
from bench.compare.pairing import align, metric_names, paired
from bench.compare.significance import compare_metrics
from bench.gate.finding import Finding, fmt_p

EXACT_TOLERANCE = 1e-9   # a deterministic backend reproduces its figures to the last bit; this is rounding
# Storage of a deterministic backend: the same writes give the same files on one machine (checked for the
# reference, server-memory and memory-libsql, 29 Nov), but page-allocating stores (SQLite, LMDB) may take a few
# pages more or less elsewhere; growth beyond both bounds is a regression (gated on one machine only: gate.py)
STORAGE_GROWTH = 0.01     # relative
STORAGE_SLACK = 65_536    # bytes
NAMED = 5                # changed queries named in a finding


def _kind(worse: float, p: float, min_effect: float, alpha: float) -> str:
    if p < alpha and worse > min_effect:
        return "regression"
    if p < alpha and -worse > min_effect:
        return "improvement"
    return "ok"


def _scenario_figures(s: dict[str, Any]) -> dict[str, float | None]:
    steps = s["steps"]
    out = {"check_rate": s["checks"]["rate"],
           "coverage": 1 - steps["unsupported"] / steps["total"] if steps["total"] else None}
    out.update(s["metrics"])
    return out


def _exact_findings(name: str, base: list[dict[str, Any]], cur: list[dict[str, Any]],
                    metrics: list[str] | None) -> list[Finding]:
    """Each ranking metric's mean compared exactly, naming the queries whose value moved."""
    pairs = align(name, base, cur)
    names = metric_names(base) if metrics is None else [m for m in metrics if m in metric_names(base)]
    out = []
    for m in names:
        xs, ys = paired(name, pairs, m)
        if not xs:
            continue
        b, c = fmean(xs), fmean(ys)
        worse = worse_by(m, b, c)
        moved = [(p[0]["id"], x, y) for p, x, y in zip((p for p in pairs if m in p[0]), xs, ys)
                 if abs(x - y) > EXACT_TOLERANCE]
        kind = "regression" if worse > EXACT_TOLERANCE else "improvement" if -worse > EXACT_TOLERANCE else "ok"
        detail = f"{b:.3f} -> {c:.3f} ({c - b:+.4f}, exact: deterministic backend)"
        if moved:
            shown = ", ".join(f"{q} {x:.3f}->{y:.3f}" for q, x, y in moved[:NAMED])
            detail += f"; {len(moved)} of {len(xs)} queries changed: {shown}{' ...' if len(moved) > NAMED else ''}"
        if kind == "ok" and moved:
            kind = "note"   # the mean held, but the answers moved: say so
        out.append(Finding(kind, name, m, detail, b, c))
    return out


def quality_findings(name: str, base: dict[str, Any], cur: dict[str, Any], *, min_effect: float, alpha: float,
                     metrics: list[str] | None = None, seed: int = 0, permutations: int = 10_000,
                     exact: bool = False, storage: bool = False) -> list[Finding]:
    """Findings for one scenario's quality; raises QueryMismatch if the queries differ. `storage`: gate the
    stored bytes too (the gate sets it for a deterministic backend on one machine and storage libraries)."""
    if exact:
        out = _exact_findings(name, base["per_query"], cur["per_query"], metrics)
        tolerance = EXACT_TOLERANCE
    else:
        out = []
        for t in compare_metrics(name, base["per_query"], cur["per_query"], metrics=metrics, seed=seed,
                                 permutations=permutations):
            kind = _kind(worse_by(t.metric, t.baseline, t.current), t.p_holm, min_effect, alpha)
            detail = f"{t.baseline:.3f} -> {t.current:.3f} ({t.diff:+.3f}, {fmt_p(t.p_holm)})"
            out.append(Finding(kind, name, t.metric, detail, t.baseline, t.current, t.p_holm))
        tolerance = min_effect
    b_fig, c_fig = _scenario_figures(base), _scenario_figures(cur)
    for m, b in b_fig.items():
        if metrics is not None and m not in metrics:
            continue
        c = c_fig.get(m)
        if b is None or c is None:
            if exact and b is not None:
                # a deterministic backend that stops producing a figure changed as surely as one whose figure
                # dropped; a note here would let failing to answer pass where answering worse fails
                out.append(Finding("regression", name, m, f"{b:.3f} -> missing (exact: deterministic backend; "
                                   "the figure is gone from this run)", b, None))
            elif (b is None) != (c is None):
                out.append(Finding("note", name, m, f"present in only one run ({b} -> {c}); not gated"))
            continue
        worse = worse_by(m, b, c)
        kind = "regression" if worse > tolerance else "improvement" if -worse > tolerance else "ok"
        diff = f"{c - b:+.4f}" if exact else f"{c - b:+.3f}"
        out.append(Finding(kind, name, m, f"{b:.3f} -> {c:.3f} ({diff}, deterministic)", b, c))
    if storage and (metrics is None or "storage_bytes" in metrics):
        out += _storage_findings(name, base.get("storage_bytes"), cur.get("storage_bytes"))
    return out


def _storage_findings(name: str, b: int | None, c: int | None) -> list[Finding]:
    """A deterministic backend's bytes on disk after the scenario: growth past `STORAGE_GROWTH` and
    `STORAGE_SLACK` is a regression (a store that writes twice, stops compacting, ...)."""
    if b is None or c is None:
        return []
    bound = b * STORAGE_GROWTH + STORAGE_SLACK
    kind = "regression" if c - b > bound else "improvement" if b - c > bound else "ok"
    detail = (f"{b:,} -> {c:,} bytes ({(c - b) / b:+.1%}, exact: deterministic backend; "
              f"beyond {STORAGE_GROWTH:.0%} + {STORAGE_SLACK // 1024} KiB fails)" if b else
              f"{b:,} -> {c:,} bytes (exact: deterministic backend; beyond {STORAGE_SLACK // 1024} KiB fails)")
    return [Finding(kind, name, "storage_bytes", detail, float(b), float(c))]
