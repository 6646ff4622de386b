"""Replay a scenario against one backend and collect what happened."""
from bench.replay.context import ReplayContext
from bench.replay.replay import replay
from bench.replay.results import QueryResult, ScenarioResult, StepRecord

__all__ = ["QueryResult", "ReplayContext", "ScenarioResult", "StepRecord", "replay"]
