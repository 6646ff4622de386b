"""How every report surface (terminal table, report.md, report.html) writes a number.

One rule, applied everywhere through `fmt_metric(name, value)`:

- a score (0..100): 2 decimals (`99.20`);
- a rate or metric in [0, 1] (nDCG, recall, check rate, a component): 3 decimals (`0.958`);
- a latency in ms (a name with `ms`, `latency`, `p50`/`p95`/`p99`): 2 decimals below 10 ms,
  1 decimal from there (`0.63`, `10.5`, `1,234.5`), with a thousands separator;
- a size in bytes (a name with `bytes`): humanised, binary units (`7.6 MiB`);
- an integer count: thousands separator (`12,345`);
- any other float: 3 decimals below 1000, none from there (`12.346`, `7,992,000`) — never an exponent;
- a missing value (None or NaN): `-`.
JSON files keep full precision; only what a person reads is formatted.
"""
from __future__ import annotations

import math
import numbers
from typing import Any

_MS_HINTS = ("ms", "latency", "p50", "p95", "p99")  # `mean` alone is no unit: latency.x.mean starts with latency


def is_missing(v: Any) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def fmt_rate(v: Any) -> str:
    """A figure in [0, 1]: 3 decimals."""
    return "-" if is_missing(v) else f"{float(v):.3f}"


def fmt_score(v: Any) -> str:
    """A codemem-bench score (0..100): 2 decimals."""
    return "-" if is_missing(v) else f"{float(v):.2f}"


def fmt_ms(v: Any) -> str:
    """Milliseconds: 2 decimals below 10, 1 decimal from 10, thousands separated."""
    if is_missing(v):
        return "-"
    v = float(v)
    return f"{v:,.2f}" if abs(v) < 10 else f"{v:,.1f}"


def fmt_bytes(v: Any) -> str:
    """A byte count in binary units with 1 decimal (`512 B`, `7.6 MiB`)."""
    if is_missing(v):
        return "-"
    n = float(v)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            return f"{int(n)} B" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError("unreachable")


def fmt_number(v: Any) -> str:
    """A figure whose unit is unknown: counts with separators, floats in [0, 1] as rates, else no exponent."""
    if is_missing(v):
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, numbers.Integral):  # numpy integers too (pandas columns)
        return f"{int(v):,}"
    if isinstance(v, numbers.Real):
        v = float(v)
        if 0 <= v <= 1:
            return fmt_rate(v)
        return f"{v:,.3f}" if abs(v) < 1000 else f"{v:,.0f}"
    return str(v)


def fmt_metric(name: str, v: Any) -> str:
    """`v` formatted by what its name says it is (see the module docstring)."""
    low = name.lower()
    if is_missing(v):
        return "-"
    if not isinstance(v, numbers.Real) or isinstance(v, bool):
        return fmt_number(v)
    if "bytes" in low:
        return fmt_bytes(v)
    if low == "score":
        return fmt_score(v)
    if low.startswith("component"):  # a score component is a rate, even `component latency`
        return fmt_number(v)
    if any(h in low.replace("@", " ").replace(".", " ").replace("_", " ").split() for h in _MS_HINTS) \
            or low.endswith(" ms") or low.startswith("latency"):
        return fmt_ms(v)
    return fmt_number(v)


def fmt_signed(name: str, d: Any) -> str:
    """A difference with its sign (`+0.012`, `-3.40`), in the unit rule of `name`."""
    if is_missing(d):
        return "-"
    return ("+" if d >= 0 else "-") + fmt_metric(name, abs(d))


def fmt_target(t: dict[str, Any]) -> str:
    """A seed target in the unit of its value: `storage_bytes < 9.5 MiB`, `ndcg@10 >= 0.850`."""
    return f"{t['metric']} {t['op']} {fmt_metric(t['metric'], t['target'])}"


def score_line(score: dict[str, Any]) -> str:
    """`codemem-bench retrieval 74.93 | score v3: 81.87 = quality 0.749 ×0.40, ...`.

    The retrieval figure (quality over ranked queries alone, 0..100) leads, beside the score and its
    weighted components; a report without it (before score version 3) shows the score alone.
    """
    comps, weights = score.get("components") or {}, score.get("weights") or {}
    parts = ", ".join(f"{k} {fmt_rate(v)} ×{weights[k]:.2f}" if k in weights else f"{k} {fmt_rate(v)}"
                      for k, v in comps.items())
    lead = f"codemem-bench retrieval {fmt_score(score['retrieval'])} | score" if "retrieval" in score \
        else "codemem-bench score"
    return f"{lead} v{score.get('version')}: {fmt_score(score.get('value'))}" + (f" = {parts}" if parts else "")
