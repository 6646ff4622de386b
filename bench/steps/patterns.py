"""Pattern tools of seed 000 §5.2 (load, list, scan) and the `score_patterns` directive.

Scans record what they returned; `score_patterns` scores them against a
truth file of planted cases (format in oracle_data/patterns/README.md), so
any detector can be scored, not only one whose rules equal the scenario's:

- `patterns.span_precision` / `.span_recall` / `.span_f1`: a file scan's
  matches `[index, start, end]` against the planted byte spans by overlap (a
  match overlapping a planted span is a true positive; a planted span
  overlapped by some match is found); `patterns.span_recall.<kind>` per kind;
- `patterns.memory_precision` / `.memory_recall`: each recorded
  `pattern_scan_memories` of the truth's set against the memories with a
  planted smell that its task/context filters admit (a memory holding only
  a planted secret is neutral: flagging it as a smell is neither right nor wrong);
- `redaction.recall.<kind>`: the share of planted secrets of that kind none
  of whose random runs reads back through `get_memory`; `redaction.decoys_kept`:
  the share of decoys (commit shas, uuids) that still read back intact.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from bench.backends.capabilities import Capability as C
from bench.steps.registry import Outcome, step

_SCANS, _MEMORY_SCANS = "pattern_scans", "pattern_memory_scans"


class Load(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pattern_set_id: str
    patterns: list[str]
    description: str = ""
    tags: list[str] | None = None


class NoArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Scan(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pattern_set_id: str
    target_key: int


class ScanMemories(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pattern_set_id: str
    task: str | None = None
    context: list[str] | None = None


class ScorePatterns(BaseModel):
    model_config = ConfigDict(extra="forbid")
    truth: str                              # JSON file, relative to the scenario file


@step("pattern_load", args=Load, requires=(C.PATTERNS,), op="write")
def pattern_load(ctx, a: Load) -> Outcome:
    return Outcome(value=ctx.backend.pattern_load(a.pattern_set_id, a.patterns, a.description, a.tags))


@step("pattern_list", args=NoArgs, requires=(C.PATTERNS,), op="read")
def pattern_list(ctx, a: NoArgs) -> Outcome:
    sets = ctx.backend.pattern_list()
    return Outcome(ranked=[s["id"] for s in sets], value=sets)


@step("pattern_scan", args=Scan, requires=(C.PATTERNS,), op="query")
def pattern_scan(ctx, a: Scan) -> Outcome:
    value = ctx.backend.pattern_scan(a.pattern_set_id, a.target_key)
    ctx.state.setdefault(_SCANS, {})[(a.pattern_set_id, str(a.target_key))] = value
    return Outcome(value=value)


@step("pattern_scan_memories", args=ScanMemories, requires=(C.PATTERNS,), op="query")
def pattern_scan_memories(ctx, a: ScanMemories) -> Outcome:
    value = ctx.backend.pattern_scan_memories(a.pattern_set_id, a.task, a.context)
    found = {ctx.to_scenario_id(m) for m in (value or {})}
    ctx.state.setdefault(_MEMORY_SCANS, []).append((a.pattern_set_id, a.task, a.context, found))
    return Outcome(value=value)


def _ratio(num: int, den: int) -> float:
    return round(num / den, 6) if den else 1.0


def _f1(p: float, r: float) -> float:
    return round(2 * p * r / (p + r), 6) if p + r else 0.0


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def span_metrics(scans: dict[tuple[str, str], Any], files: dict[str, dict]) -> dict[str, float]:
    """Offset-overlap precision/recall of recorded file scans against planted spans."""
    tp = n_matches = 0
    found: dict[str, list[int]] = {}
    for key, f in files.items():
        value = scans.get((f["set"], key))
        if value is None:
            continue                        # not scanned: its spans count as missed below
        matches = [(int(m[1]), int(m[2])) for m in value]
        planted = [(s["start"], s["end"]) for s in f["spans"]]
        n_matches += len(matches)
        tp += sum(any(_overlaps(m, p) for p in planted) for m in matches)
    for key, f in files.items():
        matches = [(int(m[1]), int(m[2])) for m in scans.get((f["set"], key)) or []]
        for s in f["spans"]:
            hit = any(_overlaps(m, (s["start"], s["end"])) for m in matches)
            found.setdefault(s["kind"], []).append(hit)
    n_found = sum(sum(v) for v in found.values())
    n_planted = sum(len(v) for v in found.values())
    p, r = _ratio(tp, n_matches), _ratio(n_found, n_planted)
    out = {"patterns.span_precision": p, "patterns.span_recall": r, "patterns.span_f1": _f1(p, r)}
    out |= {f"patterns.span_recall.{k}": _ratio(sum(v), len(v)) for k, v in sorted(found.items())}
    return out


def memory_metrics(scans: list[tuple], memories: dict[str, dict], smell_set: str) -> dict[str, float]:
    """Per-memory precision/recall of recorded scans with `smell_set` against memories with planted smells."""
    tp = n_found = n_truth = 0
    neutral = {alias for alias, m in memories.items() if m["secrets"] and not m["smells"]}
    for set_id, task, context, found in scans:
        if set_id != smell_set:
            continue
        found = found - neutral             # a hardcoded secret may count as a smell too: neither right nor wrong
        want = {alias for alias, m in memories.items() if m["smells"]
                and (task is None or m["task"] == task) and set(context or []) <= set(m["context"])}
        tp, n_found, n_truth = tp + len(found & want), n_found + len(found), n_truth + len(want)
    p, r = _ratio(tp, n_found), _ratio(tp, n_truth)
    return {"patterns.memory_precision": p, "patterns.memory_recall": r, "patterns.memory_f1": _f1(p, r)}


def redaction_metrics(ctx, memories: dict[str, dict]) -> dict[str, float]:
    """Per-kind redaction recall and decoys kept, read back through the backend's `get_memory`."""
    kept: dict[str, list[bool]] = {}
    decoys: list[bool] = []
    for alias, m in memories.items():
        if not m["secrets"] and not m["decoys"]:
            continue
        record = ctx.backend.get_memory(ctx.resolve(f"${alias}")) if alias in ctx.aliases else None
        text = json.dumps(record, ensure_ascii=False) if record is not None else ""
        for s in m["secrets"]:
            kept.setdefault(s["kind"], []).append(record is not None and not any(r in text for r in s["runs"]))
        decoys += [record is not None and d["value"] in text for d in m["decoys"]]
    out = {f"redaction.recall.{k}": _ratio(sum(v), len(v)) for k, v in sorted(kept.items())}
    if decoys:
        out["redaction.decoys_kept"] = _ratio(sum(decoys), len(decoys))
    return out


@step("score_patterns", args=ScorePatterns, requires=(C.PATTERNS,), kind="directive")
def score_patterns(ctx, a: ScorePatterns) -> Outcome:
    """Score earlier scans and read-backs against the planted truth file."""
    path = ctx.path(a.truth)
    try:
        truth = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"score_patterns: cannot read truth file {path}: {exc}") from None
    files, memories = truth.get("files", {}), truth.get("memories", {})
    smell_set = next((f["set"] for f in files.values()), "pat:security-smells")
    metrics = span_metrics(ctx.state.get(_SCANS, {}), files)
    metrics |= memory_metrics(ctx.state.get(_MEMORY_SCANS, []), memories, smell_set)
    if ctx.backend.supports(C.MEMORY_GET):
        metrics |= redaction_metrics(ctx, memories)
    ctx.state.setdefault("metrics", {}).update(metrics)
    return Outcome(value=metrics)
