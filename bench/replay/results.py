"""Records of a replay: per step, per query and per scenario."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Status = Literal["ok", "failed", "error", "unsupported"]


@dataclass
class CheckResult:
    """One pass/fail expectation (found, fields, ids, count, equals, error...)."""

    name: str
    passed: bool
    detail: str = ""


@dataclass
class QueryResult:
    """A ranked query's metrics and its top results (as scenario ids)."""

    id: str
    line: int
    category: str | None
    metrics: dict[str, float]
    retrieved: list[str]
    unsupported: bool = False


@dataclass
class StepRecord:
    """What happened at one step (kind `harness` for the end-of-scenario write census)."""

    line: int
    name: str
    kind: str
    status: Status
    latency_ms: float | None
    message: str = ""
    checks: list[CheckResult] = field(default_factory=list)
    # why the backend did not do the work, if it did not: "unsupported", "raised" (anything but an
    # expected refusal) or "empty" (a ranked query answered with nothing); score version 3 gives no
    # latency credit for it
    undone: str | None = None

    @property
    def done(self) -> bool:
        return self.undone is None


@dataclass
class ScenarioResult:
    """Everything a replay of one scenario produced."""

    scenario: str
    backend: str
    steps: list[StepRecord] = field(default_factory=list)
    queries: list[QueryResult] = field(default_factory=list)
    storage_bytes: int | None = None
    extra_metrics: dict[str, float] = field(default_factory=dict)
    census: dict[str, int] = field(default_factory=dict)          # acknowledged, verified, lost, unverifiable
    lost_writes: list[dict[str, Any]] = field(default_factory=list)  # line and step of each lost write
    # each planted relationship pair of `score_knowledge`: {source, target, truth, detected[, reason]}
    relationships: list[dict[str, str]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
