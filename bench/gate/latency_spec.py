"""Latency thresholds of the gate and their compact command-line syntax.

`[GROUP.]STAT:REL%[:ABS]`: GROUP is `reads` (each tool step type whose telemetry op is
read or query, on its own, in each scenario), `writes` (likewise for write, overwrite
and delete), `steps` (every tool step type), a `latency_samples_ms` group of the
report (`all`, the default when GROUP is left out; `queries`) or a step name such as
`memory_search_structured`; STAT one of p10, p50, p95, p99, read from the per-step
samples of all repetitions; REL the relative increase and ABS the absolute increase
(`2ms`, `500us` or a bare number of ms; default 0) that must BOTH be exceeded before the
quantile test is consulted. `off` turns latency gating off.
Examples: `reads.p10:100%:2ms`, `queries.p50:10%:2ms`, `off`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

STATS = ("p10", "p50", "p95", "p99")
# per-step-type groups: name -> telemetry ops of the tool steps it holds (None: every op)
STEP_GROUPS: dict[str, tuple[str, ...] | None] = {"steps": None, "reads": ("read", "query"),
                                                  "writes": ("write", "overwrite", "delete")}
_SPEC = re.compile(r"^(?:(?P<group>[A-Za-z0-9_\-]+)\.)?(?P<stat>[a-z0-9]+):(?P<rel>\d+(?:\.\d+)?)%"
                   r"(?::(?P<abs>\d+(?:\.\d+)?)(?P<unit>ms|us)?)?$")


@dataclass(frozen=True)
class LatencySpec:
    """Gate `group.stat` when it grows by more than `rel` (fraction) and more than `abs_ms`."""

    group: str
    stat: str
    rel: float
    abs_ms: float = 0.0

    @property
    def q(self) -> float:
        """The quantile as a fraction (p95 -> 0.95)."""
        return int(self.stat[1:]) / 100

    @property
    def metric(self) -> str:
        return f"latency.{self.group}.{self.stat}"

    def __str__(self) -> str:
        return f"{self.group}.{self.stat}:{self.rel * 100:g}%:{self.abs_ms:g}ms"


# Calibrated on a 2-core machine shared with other jobs (bench/gate/README.md): contention only
# adds time, so a step type's fastest tenth (p10) moves little between unchanged runs, while
# medians of write steps moved 0.5 -> 7.8 ms; a search 5 ms slower moves its p10 by 5 ms. Writes
# wait on the disk and on the scheduler after it: their p10 still rose 2.1 -> 7.5 ms at load 10,
# so they are gated on gross slowdowns only.
DEFAULT_LATENCY: tuple[LatencySpec, ...] = (LatencySpec("reads", "p10", 1.0, 2.0),
                                            LatencySpec("writes", "p10", 3.0, 10.0))


def parse_spec(text: str) -> LatencySpec:
    """One `[GROUP.]STAT:REL%[:ABS]`; a ValueError says what is wrong with it."""
    m = _SPEC.match(text.strip())
    if not m:
        raise ValueError(f"latency threshold {text!r}: expected [GROUP.]STAT:REL%[:ABS], "
                         "e.g. p95:10% or queries.p95:10%:2ms, or 'off'")
    if m["stat"] not in STATS:
        raise ValueError(f"latency threshold {text!r}: statistic {m['stat']!r} is not one of {', '.join(STATS)}")
    abs_ms = float(m["abs"] or 0) / (1000 if m["unit"] == "us" else 1)
    return LatencySpec(m["group"] or "all", m["stat"], float(m["rel"]) / 100, abs_ms)


def parse_latency(items: list[str] | None) -> tuple[LatencySpec, ...]:
    """The thresholds named by repeated and/or comma-separated `--latency` values.

    None or an empty list gives `DEFAULT_LATENCY`; `off` (alone) gives none. A later
    threshold for the same group and statistic replaces an earlier one.
    """
    if not items:
        return DEFAULT_LATENCY
    parts = [p.strip() for item in items for p in item.split(",") if p.strip()]
    if "off" in parts:
        if len(parts) > 1:
            raise ValueError("--latency off cannot be combined with thresholds")
        return ()
    specs: dict[tuple[str, str], LatencySpec] = {}
    for p in parts:
        s = parse_spec(p)
        specs[(s.group, s.stat)] = s
    return tuple(specs.values())
