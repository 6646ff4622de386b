"""Run a scenario's steps against one backend, timing each and emitting telemetry."""
from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from reference.clock import LogicalClock
from reference.telemetry import TelemetryEvent, TelemetrySink

from bench.backends.interface import Backend, Unsupported
from bench.replay.census import Census
from bench.replay.checks import evaluate, evaluate_error, pair_metrics, score_ranking, zero_metrics
from bench.replay.context import AliasError, ReplayContext
from bench.replay.results import CheckResult, QueryResult, ScenarioResult, StepRecord
from bench.replay.write_batch import run_writes, write_run
from bench.scenario.model import Scenario, Step
from bench.steps import STEPS
from bench.steps.knowledge import RELATIONSHIP_PAIRS

Progress = Callable[[int, int], None]


def _emit(sink: TelemetrySink, ctx: ReplayContext, scenario: Scenario, step: Step, op: str,
          latency_ms: float | None, memory_id: str | None, status: str, timestamp: float | None = None) -> None:
    sink.emit(TelemetryEvent(
        op=op, memory_id=memory_id, entity_type=step.name.split("_")[0], scope=ctx.session["scope"],
        run_id=ctx.session["run_id"], task_id=ctx.session["task_id"],
        timestamp=ctx.clock.now() if timestamp is None else timestamp,
        latency_ms=latency_ms, source="harness",
        extra={"scenario": scenario.name, "backend": ctx.backend.label, "step": step.name,
               "line": step.line, "status": status, "query_id": step.id, "category": step.category}))


def _query_record(step: Step, metrics: dict[str, float], retrieved: list[str], unsupported: bool) -> QueryResult:
    return QueryResult(id=step.id or f"line{step.line}", line=step.line, category=step.category,
                       metrics=metrics, retrieved=retrieved, unsupported=unsupported)


def _check_names(expect) -> list[str]:
    """The pass/fail checks an expect clause asks for (ranking is scored separately)."""
    if expect is None:
        return []
    fields = ("found", "fields", "ids", "contains", "excludes", "count", "equals", "error", "pairs", "absent")
    return [f for f in fields if f in expect.model_fields_set and getattr(expect, f) is not None]


def _unsupported(ctx: ReplayContext, scenario: Scenario, step: Step, sink: TelemetrySink,
                 result: ScenarioResult, needs: str) -> None:
    # Checks a step could not run count as failed, so declaring less never raises check_rate.
    checks = [CheckResult(name, False, f"unsupported: needs {needs}") for name in _check_names(step.expect)]
    result.steps.append(StepRecord(step.line, step.name, step.kind, "unsupported", None, f"needs {needs}", checks,
                                   undone="unsupported"))
    if step.expect is not None and step.expect.relevant is not None:
        result.queries.append(_query_record(step, zero_metrics(step.expect), [], True))
    _emit(sink, ctx, scenario, step, STEPS[step.name].op, None, None, "unsupported")


def _refused(ctx: ReplayContext, exc: Exception) -> bool:
    """Whether `exc` is the backend refusing its input (its declared `input_errors`), not a bug."""
    return isinstance(exc, ctx.backend.input_errors) and not isinstance(exc, AliasError)


def _raised(ctx: ReplayContext, scenario: Scenario, step: Step, sink: TelemetrySink, result: ScenarioResult,
            exc: Exception, latency: float) -> None:
    """Grade a step that raised: an expected refusal passes; anything else fails every check it carries."""
    refused = _refused(ctx, exc)
    message = f"{type(exc).__name__}: {_short(str(exc))}"
    if not refused:
        message = f"backend or harness bug: {message}"
    expected = step.expect is not None and step.expect.error not in (None, False)
    if expected and refused:
        checks = evaluate_error(step.expect, str(exc)) or []
    else:
        why = f"raised {message}" if not expected else f"expected a refusal, got {message}"
        # a step with neither a check nor a ranked query (a write, a directive) still fails one
        ranked_query = step.expect is not None and step.expect.relevant is not None
        names = _check_names(step.expect) or ([] if ranked_query else ["raised"])
        checks = [CheckResult(name, False, why) for name in names]
    status = "ok" if checks and all(c.passed for c in checks) else ("failed" if refused else "error")
    result.steps.append(StepRecord(step.line, step.name, step.kind, status, latency, message, checks,
                                   undone=None if expected and refused else "raised"))
    if step.expect is not None and step.expect.relevant is not None:
        result.queries.append(_query_record(step, zero_metrics(step.expect), [], False))
    _emit(sink, ctx, scenario, step, STEPS[step.name].op, latency, None, status)


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _run_step(ctx: ReplayContext, scenario: Scenario, step: Step, sink: TelemetrySink,
              result: ScenarioResult) -> None:
    spec = STEPS[step.name]
    missing = [c for c in spec.requires if not ctx.backend.supports(c)]
    if missing:
        _unsupported(ctx, scenario, step, sink, result, ", ".join(c.value for c in missing))
        return
    t0 = time.perf_counter()
    try:
        args = spec.args_model.model_validate(ctx.resolve(step.args.model_dump(by_alias=True)))
        outcome = spec.run(ctx, args)
    except Unsupported as exc:  # a capability only some arguments need (filters, ...)
        _unsupported(ctx, scenario, step, sink, result, exc.capability.value)
        return
    except Exception as exc:  # noqa: BLE001 - every failure is graded, none may crash the run
        latency = (time.perf_counter() - t0) * 1000
        _raised(ctx, scenario, step, sink, result, exc, latency)
        return
    latency = (time.perf_counter() - t0) * 1000
    _finish(ctx, scenario, step, sink, result, args, outcome, latency)


def _finish(ctx: ReplayContext, scenario: Scenario, step: Step, sink: TelemetrySink, result: ScenarioResult,
            args, outcome, latency: float, timestamp: float | None = None) -> None:
    """Bind, census, grade and record a step that returned `outcome` (at clock time `timestamp`, default now)."""
    spec = STEPS[step.name]
    if step.alias and outcome.created_id is not None:
        ctx.bind(step.alias, outcome.created_id)
    ctx.state["step_name"] = step.name
    ctx.state["census"].record(ctx, step.line, step.name, spec.op, step.kind, args, outcome)
    try:
        checks = evaluate(ctx, step.expect, outcome) if step.expect is not None else []
        query = score_ranking(ctx, step.expect, outcome) if step.expect is not None and step.expect.relevant else None
    except Exception as exc:  # noqa: BLE001 - e.g. an expect clause naming an unbound alias
        _raised(ctx, scenario, step, sink, result, exc, latency)
        return
    if query is not None:
        result.queries.append(_query_record(step, query[0], query[1], False))
    status = "failed" if any(not c.passed for c in checks) else "ok"
    message = "; ".join(f"{c.name}: {c.detail}" for c in checks if not c.passed)
    # a ranked query always has something relevant: answering it with nothing did no work (SCORING.md)
    undone = "empty" if query is not None and not query[1] else None
    result.steps.append(StepRecord(step.line, step.name, step.kind, status, latency, message, checks, undone))
    _emit(sink, ctx, scenario, step, spec.op, latency, outcome.created_id, status, timestamp)


def _take_census(census: Census, backend: Backend, scenario: Scenario, result: ScenarioResult) -> None:
    """Read every acknowledged write back; record the counts and a `harness` step with the census checks."""
    census.verify(backend)
    result.census = census.counts()
    end = scenario.steps[-1].line + 1 if scenario.steps else 2
    lost = census.lost
    message = f"{len(lost)} acknowledged writes lost, first at line {lost[0].line}" if lost else ""
    result.steps.append(StepRecord(end, "census", "harness", "failed" if lost else "ok", None, message,
                                   census.checks()))
    result.lost_writes = [{"line": w.line, "step": w.step} for w in lost]


def replay(scenario: Scenario, backend: Backend, workdir: Path, sink: TelemetrySink,
           progress: Progress | None = None) -> ScenarioResult:
    """Open `backend` in a fresh `workdir`, replay every step, close it; return the records.

    The backend gets the scenario's logical clock, so the same scenario gives
    the same store and the same quality figures on every run.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    clock = LogicalClock(scenario.header.start_time)
    ctx = ReplayContext(backend=backend, clock=clock, scenario_dir=scenario.path.parent, workdir=workdir)
    result = ScenarioResult(scenario=scenario.name, backend=backend.label)
    census = ctx.state["census"] = Census()
    backend.open(workdir / "store", clock, sink)
    try:
        steps, i = scenario.steps, 0
        while i < len(steps):
            run = write_run(ctx, steps, i)
            if len(run):
                run_writes(ctx, scenario, steps[i: i + len(run)], run, sink, result, _run_step, _finish)
            else:
                _run_step(ctx, scenario, steps[i], sink, result)
            for j in range(i + 1, i + max(len(run), 1) + 1):
                if progress is not None:
                    progress(j, len(steps))
            i += max(len(run), 1)
        _take_census(census, backend, scenario, result)
        result.extra_metrics.update(ctx.state.get("metrics", {}))
        result.extra_metrics.update(pair_metrics(ctx.state.get("pair_counts", {})))
        result.relationships = list(ctx.state.get(RELATIONSHIP_PAIRS, []))
        result.storage_bytes = backend.storage_bytes()
    finally:
        backend.close()
    return result
