"""The regression gate (`codemem-bench gate`): a report against a committed baseline.

Quality: a drop beyond a minimal effect confirmed by a paired per-query randomisation
test (Holm across metrics). Latency, only between reports of one machine: per step type, a low
quantile (p10) beyond a relative and an absolute threshold, confirmed by a one-sided quantile
test (Holm over every step type); calibrated by `python3 -m bench.gate.calibrate`.
"""
from bench.gate.finding import Finding
from bench.gate.gate import (EXIT_INPUT, EXIT_NOTHING, EXIT_PASS, EXIT_REGRESSION, GateInputError, GateOptions,
                             GateResult, run_gate)
from bench.gate.latency_spec import DEFAULT_LATENCY, LatencySpec, parse_latency

__all__ = ["DEFAULT_LATENCY", "EXIT_INPUT", "EXIT_NOTHING", "EXIT_PASS", "EXIT_REGRESSION", "Finding",
           "GateInputError", "GateOptions", "GateResult", "LatencySpec", "parse_latency", "run_gate"]
