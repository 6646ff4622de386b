"""Compare a report with a committed baseline and decide: pass, regression, bad input, nothing ran."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bench.gate.finding import Finding
from bench.gate.latency import latency_findings, repetitions
from bench.gate.latency_spec import DEFAULT_LATENCY, LatencySpec
from bench.gate.quality import quality_findings
from bench.report import Report
from bench.report.fingerprint import job_difference, machine_differences

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
    exact: bool = True   # deterministic backends: any drop fails (False: the paired test for every backend)
    quality: bool = True   # False: latency alone (a same-job run whose quality the committed baseline gates)

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
    extra = sorted(set(report.scenarios) - set(baseline.scenarios))
    if extra:
        raise GateInputError(f"scenarios only in the report, not in the baseline: {extra[:5]}; the baseline "
                             f"covers {', '.join(baseline.scenarios)}")
    if baseline.scenarios and steps_run(baseline) == 0:
        raise GateInputError("the baseline ran no step; regenerate it")


def _general_notes(report: Report, baseline: Report, options: GateOptions, latency_on: bool) -> list[Finding]:
    notes = []
    skipped = [n for n in baseline.scenarios if n not in report.scenarios]
    if skipped:
        notes.append(Finding("note", "*", "scenarios", f"gated {len(report.scenarios)} of the baseline's "
                             f"{len(baseline.scenarios)} scenarios; not in the report, skipped: {', '.join(skipped)}"))
    if report.backend != baseline.backend:
        notes.append(Finding("note", "*", "backend", f"report of {report.backend!r} gated against a baseline "
                             f"of {baseline.backend!r}"))
    if latency_on:
        reps = min(len(repetitions(s)) for r in (report, baseline) for s in r.scenarios.values())
        if reps < 3:
            notes.append(Finding("note", "*", "latency", f"a side has only {reps} repetition(s); "
                                 "`run --repeat 3` or more gives the quantile test more samples"))
    return notes


SAME_JOB_RECIPE = "codemem-bench gate --against REV (bench/gate/README.md)"


def _latency_note(report: Report, baseline: Report) -> Finding | None:
    """One line when latency is not comparable: the reports are not of one job on one machine."""
    diff = machine_differences(report.environment, baseline.environment)
    if diff:
        why = f"the reports come from different machines ({'; '.join(diff[:3])})"
    else:
        job = job_difference(report.environment, baseline.environment)
        if job is None:
            return None
        why = f"the reports are not from one same-job run ({job}); for latency use {SAME_JOB_RECIPE}"
    return Finding("note", "*", "latency", f"not gated, quality gated alone: {why}")


# libraries whose own layout the stored files follow: compiled Hyperscan databases, LMDB pages
STORAGE_PACKAGES = ("hyperscan", "lmdb")


def _storage_note(report: Report, baseline: Report) -> Finding | None:
    """One line when storage is not comparable: another machine (Hyperscan compiles its databases for the
    host CPU) or another version of a library whose files the store holds; None when it is."""
    why = machine_differences(report.environment, baseline.environment)
    pa = (report.environment or {}).get("packages") or {}
    pb = (baseline.environment or {}).get("packages") or {}
    why += [f"{p} {pa.get(p)} vs {pb.get(p)}" for p in STORAGE_PACKAGES if pa.get(p) != pb.get(p)]
    if not why:
        return None
    return Finding("note", "*", "storage", f"not gated: {'; '.join(why[:3])} (stored bytes are compared only on one "
                   "machine with the same storage libraries)")


def declared_deterministic(report: Report) -> bool:
    """Whether the report's backend declares deterministic quality (the report's record, else the backend's class)."""
    if report.determinism:
        return bool(report.determinism.get("declared"))
    from bench.backends.registry import backend_class   # a report made before `determinism` was recorded
    name, _, option = report.backend.partition(":")
    try:
        cls = backend_class(name)
    except (KeyError, ValueError, ImportError, TypeError):
        return False
    if name == "mcp":
        from bench.backends.mcp.adapter import load_adapter
        try:
            return not load_adapter(option).nondeterministic.strip()
        except ValueError:
            return False
    return bool(getattr(cls, "deterministic", False))


def _quality_mode(report: Report, baseline: Report, options: GateOptions) -> tuple[bool, Finding]:
    both = declared_deterministic(report) and declared_deterministic(baseline)
    if both and options.exact:
        reps = min(r.determinism.get("repetitions", 1) if r.determinism else 1 for r in (report, baseline))
        checked = f"; {reps} repetitions agreed" if reps >= 2 else "; one repetition (`--repeat 2` checks it)"
        return True, Finding("note", "*", "quality", f"exact: the backend declares deterministic quality, any "
                             f"drop fails{checked}")
    why = "exact test turned off" if both else "the backend does not declare deterministic quality"
    return False, Finding("note", "*", "quality", f"paired test with min effect {options.min_effect:g} ({why})")


def run_gate(report: Report, baseline: Report, options: GateOptions = GateOptions()) -> GateResult:
    """Gate `report` against `baseline`; raises GateInputError or QueryMismatch on inputs that differ.

    The report may cover a subset of the baseline's scenarios (a note names the skipped ones).
    Quality is gated exactly when both reports' backend declares deterministic quality, else by
    the paired test. Latency is gated only between reports of one machine fingerprint and one
    job (a same-job recipe: `gate --against`, `compare`, calibrate); otherwise one note says so
    and quality is gated alone.
    """
    _check_inputs(report, baseline)
    if not report.scenarios or steps_run(report) == 0:
        return GateResult([Finding("note", "*", "steps", "the report ran no step")], nothing_ran=True)
    machine = _latency_note(report, baseline) if options.latency else None
    latency_on = bool(options.latency) and machine is None
    exact, mode = _quality_mode(report, baseline, options)
    if not options.quality:
        mode = Finding("note", "*", "quality", "not gated (--quality off): latency alone")
    findings = _general_notes(report, baseline, options, latency_on) + [mode] + ([machine] if machine else [])
    storage = _storage_note(report, baseline) if exact and options.quality else None
    findings += [storage] if storage else []
    pairs = {name: (baseline.scenarios[name], cur) for name, cur in report.scenarios.items()}
    for name, (base, cur) in pairs.items() if options.quality else ():
        findings += quality_findings(name, base, cur, min_effect=options.min_effect, alpha=options.alpha,
                                     metrics=list(options.metrics) if options.metrics else None,
                                     seed=options.seed, permutations=options.permutations, exact=exact,
                                     storage=exact and storage is None)
    if latency_on:
        findings += latency_findings(pairs, options.latency, options.alpha)
    return GateResult(findings)
