"""Evaluate a step's `expect` clause against what the step returned."""
from __future__ import annotations

import json
from typing import Any

from bench.metrics import ranking_metrics
from bench.replay.context import ReplayContext
from bench.replay.results import CheckResult
from bench.scenario.model import Expect
from bench.steps.registry import Outcome


def _ids(ctx: ReplayContext, outcome: Outcome) -> list[str] | None:
    if outcome.ranked is None:
        return None
    return [ctx.to_scenario_id(i) for i in outcome.ranked]


def _sub_dict(expected: dict[str, Any], actual: Any) -> tuple[bool, str]:
    if not isinstance(actual, dict):
        return False, f"expected a record, got {type(actual).__name__}"
    for k, v in expected.items():
        if actual.get(k) != v:
            return False, f"field {k!r}: expected {v!r}, got {actual.get(k)!r}"
    return True, ""


def evaluate(ctx: ReplayContext, expect: Expect, outcome: Outcome) -> list[CheckResult]:
    """Pass/fail checks of a step that ran without raising (ranking is scored separately)."""
    out: list[CheckResult] = []
    ids = _ids(ctx, outcome)
    if expect.error is not None and expect.error is not False:
        out.append(CheckResult("error", False, "expected the call to fail, it succeeded"))
    if expect.found is not None:
        got = outcome.value is not None
        out.append(CheckResult("found", got == expect.found, f"expected found={expect.found}, got {got}"))
    if expect.fields is not None:
        ok, why = _sub_dict(ctx.resolve(expect.fields), outcome.value)
        out.append(CheckResult("fields", ok, why))
    if expect.ids is not None:
        out.append(CheckResult("ids", ids == expect.ids, f"expected {expect.ids}, got {ids}"))
    if expect.contains is not None:
        missing = [i for i in expect.contains if i not in (ids or [])]
        out.append(CheckResult("contains", not missing, f"missing {missing}"))
    if expect.excludes is not None:
        present = [i for i in expect.excludes if i in (ids or [])]
        out.append(CheckResult("excludes", not present, f"unexpectedly present {present}"))
    if expect.count is not None:
        n = len(ids) if ids is not None else (len(outcome.value) if outcome.value is not None else 0)
        out.append(CheckResult("count", n == expect.count, f"expected {expect.count}, got {n}"))
    if expect.pairs is not None:
        out.append(_pairs(ctx, expect.pairs, outcome.value))
    if expect.absent is not None:
        out.append(_absent(ctx, expect.absent, outcome.value))
    if "equals" in expect.model_fields_set:
        want = ctx.resolve(expect.equals)
        out.append(CheckResult("equals", outcome.value == want, f"expected {want!r}, got {outcome.value!r}"))
    return out


def _pairs(ctx: ReplayContext, expected: dict[str, list[str]], value: Any) -> CheckResult:
    """Compare item -> labels sets; true/false positives and misses accumulate per step for P/R."""
    want = {(item, label) for item, labels in expected.items() for label in labels}
    got = {(ctx.to_scenario_id(item), label) for item, labels in (value or {}).items() for label in labels}
    counts = ctx.state.setdefault("pair_counts", {}).setdefault(ctx.state["step_name"], [0, 0, 0])
    counts[0] += len(want & got)
    counts[1] += len(got - want)
    counts[2] += len(want - got)
    return CheckResult("pairs", want == got, f"missing {sorted(want - got)[:5]}, extra {sorted(got - want)[:5]}")


def _absent(ctx: ReplayContext, needles: list[str], value: Any) -> CheckResult:
    """Each string must be missing from the value's JSON; counted as `redaction` recall."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    present = [n for n in needles if n in text]
    counts = ctx.state.setdefault("pair_counts", {}).setdefault("redaction", [0, 0, 0])
    counts[0] += len(needles) - len(present)
    counts[2] += len(present)
    return CheckResult("absent", not present, f"still present: {present}")


def pair_metrics(counts: dict[str, list[int]]) -> dict[str, float]:
    """`<step>.precision`, `.recall` and `.f1` from accumulated pair counts."""
    out = {}
    for name, (tp, fp, fn) in counts.items():
        p = tp / (tp + fp) if tp + fp else 1.0
        r = tp / (tp + fn) if tp + fn else 1.0
        out |= {f"{name}.precision": round(p, 6), f"{name}.recall": round(r, 6),
                f"{name}.f1": round(2 * p * r / (p + r), 6) if p + r else 0.0}
    return out


def evaluate_error(expect: Expect | None, message: str) -> list[CheckResult] | None:
    """Checks for a step that raised; None when the error was not expected."""
    if expect is None or expect.error in (None, False):
        return None
    if isinstance(expect.error, str) and expect.error not in message:
        return [CheckResult("error", False, f"error message {message!r} lacks {expect.error!r}")]
    return [CheckResult("error", True, "")]


def score_ranking(ctx: ReplayContext, expect: Expect, outcome: Outcome) -> tuple[dict[str, float], list[str]]:
    """Ranking metrics of a query and its top-k results as scenario ids."""
    ids = _ids(ctx, outcome) or []
    return ranking_metrics(ids, expect.grades(), expect.k), ids[: expect.k]


def zero_metrics(expect: Expect) -> dict[str, float]:
    """The metrics of a query that could not run: every figure 0."""
    return {k: 0.0 for k in ranking_metrics([], expect.grades(), expect.k)}
