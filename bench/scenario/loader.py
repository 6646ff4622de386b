"""Load and validate a scenario file; every error names the file, the line and the field."""
from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from bench.scenario.model import Expect, Header, Scenario, Step
from bench.scenario.references import UndefinedReference, check_references
from bench.steps import STEPS, known_steps

_STEP_KEYS = {"tool", "directive", "args", "as", "id", "category", "expect"}


class ScenarioError(ValueError):
    """A scenario file is malformed; the message says file:line and the field."""


def _fail(path: Path, line: int, field: str, msg: str) -> ScenarioError:
    where = f"{path}:{line}"
    return ScenarioError(f"{where}: {field}: {msg}" if field else f"{where}: {msg}")


def _validate(model: type[BaseModel], data: Any, path: Path, line: int, prefix: str) -> BaseModel:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in (prefix, *err["loc"]) if p != "")
        raise _fail(path, line, loc or prefix, err["msg"]) from None


def _decode(path: Path, lineno: int, raw: bytes) -> str:
    """A line's text; a byte that is not UTF-8 is an error naming the file, the line and the column."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _fail(path, lineno, "", f"not UTF-8 (byte {raw[exc.start]:#04x} at column {exc.start + 1}); "
                                      "scenario files are UTF-8 JSON lines") from None


MAX_LINE = 32 * 1024 * 1024   # bytes in one scenario line (scenarios/README.md); the longest real one is ~40 KB


def _lines(path: Path):
    """(line number, text) of every line of a UTF-8 file, read as bytes so a bad byte names its line.

    A line is read at most `MAX_LINE` + 1 bytes at a time: a longer one is refused there, without
    reading the rest (a 1 GB line took 73 s and 2.25 GB of memory to be refused when read whole)."""
    with path.open("rb") as fh:
        lineno = 0
        while raw := fh.readline(MAX_LINE + 1):
            lineno += 1
            if len(raw) > MAX_LINE:
                raise _fail(path, lineno, "", f"longer than {MAX_LINE:,} bytes, the limit for a scenario line")
            yield lineno, _decode(path, lineno, raw)


def _parse_line(path: Path, lineno: int, text: str) -> dict[str, Any]:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail(path, lineno, "", f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(obj, dict):
        raise _fail(path, lineno, "", "each line must be a JSON object")
    return obj


def _parse_step(path: Path, lineno: int, obj: dict[str, Any]) -> Step:
    kinds = [k for k in ("tool", "directive") if k in obj]
    if len(kinds) != 1:
        raise _fail(path, lineno, "tool", "a step needs exactly one of 'tool' or 'directive'")
    kind = kinds[0]
    if kind == "tool":
        unknown = sorted(set(obj) - _STEP_KEYS)
        if unknown:
            raise _fail(path, lineno, unknown[0][:80], f"unknown field (allowed: {', '.join(sorted(_STEP_KEYS))})")
    name = obj[kind]
    spec = STEPS.get(name)
    if spec is None or spec.kind != kind:
        raise _fail(path, lineno, kind, f"unknown {kind} {str(name)[:80]!r}; known: {', '.join(known_steps(kind))}")
    # a directive's own fields sit beside "directive" on the line; a tool's go in "args"
    raw = obj.get("args", {}) if kind == "tool" else {k: v for k, v in obj.items() if k not in _STEP_KEYS}
    if not isinstance(raw, dict):
        raise _fail(path, lineno, "args", "must be a JSON object")
    args = _validate(spec.args_model, raw, path, lineno, "args")
    expect = _validate(Expect, obj["expect"], path, lineno, "expect") if "expect" in obj else None
    for key in ("as", "id", "category"):
        if key in obj and not isinstance(obj[key], str):
            raise _fail(path, lineno, key, "must be a string")
    return Step(line=lineno, kind=kind, name=name, args=args, alias=obj.get("as"), id=obj.get("id"),
                category=obj.get("category"), expect=expect, raw_args=raw)


def load_qrels(path: Path) -> dict[str, dict[str, int]]:
    """Read a TSV of `query_id  item_id  grade` (with a header line) into query -> {item: grade}."""
    out: dict[str, dict[str, int]] = {}
    reader = csv.reader((text for _, text in _lines(path)), delimiter="\t")
    header = next(reader, None)
    if header != ["query_id", "item_id", "grade"]:
        raise ScenarioError(f"{path}:1: header must be query_id<TAB>item_id<TAB>grade, got {str(header)[:80]}")
    for n, row in enumerate(reader, start=2):
        if len(row) != 3 or not row[2].lstrip("-").isdigit():
            raise ScenarioError(f"{path}:{n}: expected 3 tab-separated fields with an integer grade")
        out.setdefault(row[0], {})[row[1]] = int(row[2])
    return out


def _attach_oracle(scenario: Scenario, oracle_root: Path) -> None:
    qrels_path = oracle_root / scenario.header.oracle / "qrels.tsv"
    if not qrels_path.exists():
        raise ScenarioError(f"{scenario.path}:1: oracle: {qrels_path} does not exist")
    qrels = load_qrels(qrels_path)
    for step in scenario.steps:
        if step.id in qrels:
            base = step.expect.model_dump(exclude_none=True) if step.expect else {}
            base["relevant"] = qrels[step.id]
            step.expect = Expect.model_validate(base)


def load_scenario(path: str | Path, oracle_root: str | Path | None = None) -> Scenario:
    """Parse a scenario file; judgements named by its header are merged from `oracle_root`."""
    path = Path(path)
    if not path.exists():
        raise ScenarioError(f"{path}: no such scenario file")
    header: Header | None = None
    steps: list[Step] = []
    aliases: set[str] = set()
    for lineno, text in _lines(path):
        text = text.strip()
        if not text or text.startswith("#"):
            continue
        obj = _parse_line(path, lineno, text)
        if header is None:
            header = _validate(Header, obj, path, lineno, "")  # type: ignore[assignment]
            continue
        step = _parse_step(path, lineno, obj)
        if step.alias:
            if step.alias in aliases:
                raise _fail(path, lineno, "as", f"alias {step.alias[:80]!r} is already bound")
            aliases.add(step.alias)
        steps.append(step)
    if header is None:
        raise ScenarioError(f"{path}:1: empty scenario (the first line must be the header)")
    scenario = Scenario(path=path, header=header, steps=steps)
    if header.oracle:
        if oracle_root is None:
            raise ScenarioError(f"{path}:1: oracle: header names oracle {header.oracle!r} but no oracle_data folder was given")
        _attach_oracle(scenario, Path(oracle_root))
    try:
        check_references(scenario)
    except UndefinedReference as exc:
        raise ScenarioError(str(exc)) from None
    return scenario
