"""`Finding`: one line of the gate's verdict, naming the scenario and the metric."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

Kind = Literal["regression", "improvement", "ok", "note"]
_LABEL = {"regression": "REGRESSION", "improvement": "improved", "ok": "ok", "note": "note"}


def fmt_p(p: float | None) -> str:
    if p is None:
        return "p=n/a"
    return "p<0.001" if p < 0.001 else f"p={p:.3f}"


@dataclass(frozen=True)
class Finding:
    """What the gate found for one metric of one scenario; `detail` follows `scenario metric:`."""

    kind: Kind
    scenario: str
    metric: str
    detail: str
    baseline: float | None = None
    current: float | None = None
    p_value: float | None = None

    def line(self) -> str:
        """E.g. `REGRESSION sqlite-utils-history ndcg@10: 0.412 -> 0.371 (-0.041, p=0.002)`."""
        return f"{_LABEL[self.kind]} {self.scenario} {self.metric}: {self.detail}"

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "line": self.line()}
