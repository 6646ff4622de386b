"""Compare a report with a committed baseline and decide: pass, regression, bad input, nothing ran."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bench.gate.finding import Finding
from bench.gate.latency import latency_findings, repetitions
from bench.gate.latency_spec import DEFAULT_LATENCY, LatencySpec
from bench.gate.quality import quality_findings
from bench.report import Report

EXIT_PASS, EXIT_REGRESSION, EXIT_INPUT, EXIT_NOTHING = 0, 1, 2, 3


class GateInputError(ValueError):
    """The report and the baseline cannot be compared (different scenarios, empty baseline, ...)."""


@dataclass(frozen=True)
class GateOptions:
    """Thresholds of the gate; the defaults are the documented ones (reports/README.md)."""

    min_effect: float = 0.01
    alpha: float = 0.05
    latency: tuple[LatencySpec, ...] = DEFAULT_LATENCY
    metrics: tuple[str, ...] | None = None
    seed: int = 0
    permutations: int = 10_000

    def __post_init__(self) -> None:
        if not 0 < self.alpha < 1:
            raise ValueError(f"alpha must be between 0 and 1, got {self.alpha}")
        if self.min_effect < 0:
            raise ValueError(f"the minimal effect cannot be negative, got {self.min_effect}")


@dataclass
class GateResult:
    """Every finding, and whether anything ran at all."""

    findings: list[Finding] = field(default_factory=list)
    nothing_ran: bool = False

    @property
    def regressions(self) -> list[Finding]:
        return [f for f in self.findings if f.kind == "regression"]

    @property
    def exit_code(self) -> int:
        if self.nothing_ran:
            return EXIT_NOTHING
        return EXIT_REGRESSION if self.regressions else EXIT_PASS

    def to_dict(self) -> dict[str, Any]:
        return {"exit_code": self.exit_code, "nothing_ran": self.nothing_ran,
                "regressions": len(self.regressions), "findings": [f.to_dict() for f in self.findings]}


def steps_run(report: Report) -> int:
    """Steps that ran (not unsupported) over all scenarios."""
    return sum(s["steps"]["total"] - s["steps"]["unsupported"] for s in report.scenarios.values())


def _check_inputs(report: Report, baseline: Report) -> None:
    if sorted(report.scenarios) != sorted(baseline.scenarios):
        only_r = sorted(set(report.scenarios) - set(baseline.scenarios))
        only_b = sorted(set(baseline.scenarios) - set(report.scenarios))
        raise GateInputError(f"different scenario sets: only in the report {only_r}, only in the baseline "
                             f"{only_b}; run the baseline's suite ({', '.join(baseline.scenarios)})")
    if baseline.scenarios and steps_run(baseline) == 0:
        raise GateInputError("the baseline ran no step; regenerate it")


def _general_notes(report: Report, baseline: Report, options: GateOptions) -> list[Finding]:
    notes = []
    if report.backend != baseline.backend:
        notes.append(Finding("note", "*", "backend", f"report of {report.backend!r} gated against a baseline "
                             f"of {baseline.backend!r}"))
    if options.latency:
        reps = min(len(repetitions(s)) for r in (report, baseline) for s in r.scenarios.values())
        if reps < 3:
            notes.append(Finding("note", "*", "latency", f"a side has only {reps} repetition(s); "
                                 "`run --repeat 3` or more makes the medians stable"))
    return notes


def run_gate(report: Report, baseline: Report, options: GateOptions = GateOptions()) -> GateResult:
    """Gate `report` against `baseline`; raises GateInputError or QueryMismatch on inputs that differ."""
    _check_inputs(report, baseline)
    if not report.scenarios or steps_run(report) == 0:
        return GateResult([Finding("note", "*", "steps", "the report ran no step")], nothing_ran=True)
    findings = _general_notes(report, baseline, options)
    for name, base in baseline.scenarios.items():
        cur = report.scenarios[name]
        findings += quality_findings(name, base, cur, min_effect=options.min_effect, alpha=options.alpha,
                                     metrics=list(options.metrics) if options.metrics else None,
                                     seed=options.seed, permutations=options.permutations)
        findings += latency_findings(name, base, cur, options.latency, options.alpha)
    return GateResult(findings)
