"""Scenario steps. Importing this package registers every step module's handlers."""
from bench.steps import code, directives, graph, graph_bulk, knowledge, lane, memory, patterns, project  # noqa: F401  (registration side effects)
from bench.steps.registry import STEPS, Outcome, StepSpec, known_steps, step

__all__ = ["STEPS", "Outcome", "StepSpec", "known_steps", "step"]
