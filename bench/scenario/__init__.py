"""Scenario files: the JSONL format, its loader and the suites that group scenarios."""
from bench.scenario.loader import ScenarioError, load_scenario
from bench.scenario.model import Expect, Header, Scenario, Step

__all__ = ["Expect", "Header", "Scenario", "ScenarioError", "Step", "load_scenario"]
