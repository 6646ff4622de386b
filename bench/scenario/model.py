"""The in-memory form of a scenario (format v1, documented in scenarios/README.md)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

FORMAT_VERSION = 1


class Target(BaseModel):
    """A seed's success target for one metric of this scenario.

    `needs` names the tool steps the metric measures: when none of them ran (unsupported or
    raised), the target is not met, so doing nothing never meets a "<=" / "<" target. An
    upper-bound target must name them (a lower bound is not met by doing nothing anyway).
    """

    model_config = ConfigDict(extra="forbid")
    metric: str
    op: Literal[">=", ">", "<=", "<"]
    value: float
    source: str = ""
    needs: list[str] = []

    @model_validator(mode="after")
    def _upper_bound_needs(self) -> "Target":
        if self.op in ("<=", "<") and not self.needs:
            raise ValueError(f"target {self.metric!r} {self.op} {self.value:g} must name the operations it "
                             "measures in `needs` (else a backend that does nothing meets it)")
        return self

    def met(self, observed: float) -> bool:
        return {">=": observed >= self.value, ">": observed > self.value,
                "<=": observed <= self.value, "<": observed < self.value}[self.op]


class Header(BaseModel):
    """First line of a scenario file."""

    model_config = ConfigDict(extra="forbid")
    scenario: str = Field(pattern=r"^[a-z0-9][a-z0-9_\-]*$")
    format: Literal[1]
    description: str = ""
    start_time: float = 1_700_000_000.0
    oracle: str | None = None          # folder under oracle_data/ holding qrels.tsv
    source: str = ""                   # provenance / attribution of the data
    latency_budget_ms: float = 50.0    # p95 budget used by the score's latency component
    targets: list[Target] = []


class Expect(BaseModel):
    """Ground truth for one step; every field is optional and checked only when given.

    relevant: ids (aliases or canonical keys) judged relevant, a list (grade 1)
    or a mapping id -> grade; scored with ranking metrics at cut-off `k`.
    The other fields are pass/fail checks.
    """

    model_config = ConfigDict(extra="forbid")
    relevant: list[str] | dict[str, int] | None = None
    k: int = Field(10, ge=1)
    found: bool | None = None
    fields: dict[str, Any] | None = None
    ids: list[str] | None = None          # exact ordered result ids
    contains: list[str] | None = None     # ids that must be among the results
    excludes: list[str] | None = None     # ids that must not be among the results
    count: int | None = Field(None, ge=0)
    equals: Any = None                    # the step's value must equal this
    error: bool | str | None = None       # the call must fail (str: text the message contains)
    pairs: dict[str, list[str]] | None = None  # item -> labels the step must return; scored as P/R
    absent: list[str] | None = None       # none of these strings may appear in the step's value (redaction)

    @field_validator("relevant")
    @classmethod
    def _nonempty(cls, v: Any) -> Any:
        if v is not None and len(v) == 0:
            raise ValueError("relevant must name at least one id (a query with nothing relevant cannot be scored)")
        if isinstance(v, dict) and any(g <= 0 for g in v.values()):
            raise ValueError("relevance grades must be positive integers")
        return v

    def grades(self) -> dict[str, int]:
        if self.relevant is None:
            return {}
        if isinstance(self.relevant, dict):
            return dict(self.relevant)
        return {r: 1 for r in self.relevant}


@dataclass
class Step:
    """One line of a scenario: a tool call or a harness directive, already validated."""

    line: int
    kind: Literal["tool", "directive"]
    name: str
    args: BaseModel
    alias: str | None = None
    id: str | None = None
    category: str | None = None
    expect: Expect | None = None
    raw_args: dict[str, Any] = field(default_factory=dict)


@dataclass
class Scenario:
    """A loaded scenario: where it came from, its header and its steps."""

    path: Path
    header: Header
    steps: list[Step]

    @property
    def name(self) -> str:
        return self.header.scenario

    @property
    def queries(self) -> list[Step]:
        return [s for s in self.steps if s.expect is not None and s.expect.relevant is not None]
