"""An adapter file: how one MCP memory server is started, installed and mapped onto the backend interface.

Adapters are TOML files, one per server, in `bench/backends/mcp/adapters/` (built in) or in the folders
named by `CODEMEM_BENCH_ADAPTERS` (os.pathsep-separated; a user's own servers). The file format is
documented in `bench/backends/mcp/README.md`; `load_adapter` validates a file and names the file and
field of any mistake.
"""
from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal

import jmespath
from jmespath.exceptions import JMESPathError
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bench.backends.capabilities import Capability
from bench.backends.mcp.operations import NEEDS, OPERATIONS, READS, REQUIRED
from bench.backends.mcp.template import placeholders

BUILTIN_DIR = Path(__file__).parent / "adapters"

class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Install(_Strict):
    """How `codemem-bench peers install NAME` installs the server into the harness's peer folder."""

    npm: str | None = None          # an npm package spec, installed with `npm install --prefix <peer>`
    pip: str | None = None          # a pip requirement, installed into `<peer>/venv`
    python: str | None = None       # the interpreter for that venv, e.g. "3.12" (default: the harness's)
    sqlite_extensions: bool = False  # that interpreter's sqlite3 must load extensions (sqlite-vec, ...)
    models: list[Literal["minilm"]] = []   # models of `codemem-bench models` the server reads (installed first)
    check: str                      # a path under the peer folder that exists once installed


class Server(_Strict):
    command: str                    # may use {peer}, {python}, {data}, {side}, {now}, {models}
    args: list[str] = []
    env: dict[str, str] = {}
    # symbolic links made before the server starts, link -> target (placeholders in both; the link must be
    # under {data} or {side}): where a server looks for a model by a fixed path, point it at {models}/...
    links: dict[str, str] = {}
    startup_timeout_s: float = 60.0
    call_timeout_s: float = 120.0


class Operation(_Strict):
    """One backend operation as one tool call: the arguments to send and what to read from the answer."""

    tool: str
    args: dict[str, Any] = {}
    id: str | None = None           # JMESPath to the new item's id (kind `id`: write_memory, lane_store, ...)
    hits: str | None = None         # JMESPath to the ranked ids, in the server's order (searches)
    scores: str | None = None       # JMESPath to their scores (optional; the order is what is graded)
    record: str | None = None       # JMESPath to a memory record with at least id and text (get_memory)
    records: str | None = None      # JMESPath to a list of records (list_memories)
    missing: str | None = None      # JMESPath true when get_memory found nothing
    deleted: str | None = None      # JMESPath true when delete_memory removed something
    result: str | None = None       # JMESPath to the value returned (kind `value`; default: the whole answer)
    not_found: str | None = None    # text of the server's error meaning "no such id" (get: None, delete: False)
    why: str = ""

    def check(self, op: str, where: str) -> None:
        """The fields fit operation `op` (see operations.py): reads of its kind, valid JMESPath, known placeholders."""
        spec = OPERATIONS[op]
        allowed = READS[spec.kind]
        for field in ("id", "hits", "scores", "record", "records", "missing", "deleted", "result", "not_found"):
            if getattr(self, field) is not None and field not in allowed:
                raise ValueError(f"{where}.{field}: not read by {op} (it reads: {', '.join(allowed) or 'nothing'})")
        if field_needed := REQUIRED.get(spec.kind):
            if getattr(self, field_needed) is None:
                raise ValueError(f"{where}.{field_needed}: {op} needs it (a JMESPath expression)")
        if self.not_found is not None and spec.kind == "value" and not spec.returns.endswith("?"):
            raise ValueError(f"{where}.not_found: {op} cannot answer 'nothing'")
        for field in ("id", "hits", "scores", "record", "records", "missing", "deleted", "result"):
            expression = getattr(self, field)
            if expression is not None:
                try:
                    jmespath.compile(expression)
                except JMESPathError as exc:
                    raise ValueError(f"{where}.{field}: JMESPath {expression[:80]!r}: "
                                     f"{' '.join(str(exc).split())[:120]}") from None
        unknown = sorted(placeholders(self.args) - set(spec.params))
        if unknown:
            raise ValueError(f"{where}.args: {{{unknown[0][:40]}}} is not an argument of {op} "
                             f"(it has: {', '.join(spec.params) or 'none'})")


class Clock(_Strict):
    """A server that takes the scenario's logical clock: the tool that sets it and its argument."""

    tool: str
    arg: str = "time"


class Gate(_Strict):
    """How `codemem-bench gate` judges a run of this server, for a server whose answers vary run to run.

    `min_effect` replaces the gate's default minimal effect (0.01) for every quality figure: a drop counts
    only beyond it. Choose it from measured run-to-run variation (README: "Nondeterministic servers") and
    say in `why` what was measured. `latency = false` gates quality alone.
    """

    min_effect: float = Field(gt=0, le=1)
    latency: bool = True
    why: str


class Adapter(_Strict):
    name: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")
    description: str
    homepage: str = ""
    version: str = ""               # the server version this adapter was tested with
    install: Install | None = None  # None: the server comes with codemem-bench
    server: Server
    capabilities: list[Capability]
    why: str = ""                   # why these capabilities and not others
    clock: Clock | None = None
    nondeterministic: str = ""      # why the server's answers vary from run to run (measured); empty = they don't
    telemetry: str = ""             # a file where the server appends the harness's telemetry events (JSON lines)
    gate: Gate | None = None        # how `codemem-bench gate` judges this server's runs (nondeterministic servers)
    ops: dict[str, Operation]
    source: str = ""                # the file it was read from (set by the loader)

    def check(self) -> None:
        """Every declared capability has the operations it needs mapped."""
        for cap in self.capabilities:
            for op in NEEDS.get(cap, ("(not mappable by an adapter)",)):
                if op not in self.ops:
                    raise ValueError(f"{self.source}: capability {cap.value!r} needs [ops.{op}]")
        for op, spec in self.ops.items():
            if op not in OPERATIONS:
                raise ValueError(f"{self.source}: [ops.{op[:40]}]: not an operation of the backend "
                                 f"interface (the list: bench/backends/mcp/README.md, step 6)")
            spec.check(op, f"{self.source}: [ops.{op}]")
        if self.nondeterministic.strip() and self.gate is None:
            raise ValueError(f"{self.source}: nondeterministic servers need a [gate] table (its measured tolerance)")


def adapter_dirs() -> list[Path]:
    extra = [Path(p) for p in os.environ.get("CODEMEM_BENCH_ADAPTERS", "").split(os.pathsep) if p]
    return extra + [BUILTIN_DIR]


def adapter_names() -> list[str]:
    """Every adapter name that can follow `mcp:` (user folders first; a user file overrides a built-in)."""
    seen: list[str] = []
    for d in adapter_dirs():
        for f in sorted(d.glob("*.toml")) if d.is_dir() else []:
            if f.stem not in seen:
                seen.append(f.stem)
    return seen


def adapter_path(name: str) -> Path:
    for d in adapter_dirs():
        if (d / f"{name}.toml").is_file():
            return d / f"{name}.toml"
    raise ValueError(f"no MCP adapter {name!r}; known: {', '.join(adapter_names()) or 'none'} "
                     f"(adapter folders: {', '.join(map(str, adapter_dirs()))})")


def load_adapter(name_or_path: str | Path) -> Adapter:
    """Read and validate an adapter by name or path; errors name the file and the field."""
    path = Path(name_or_path) if str(name_or_path).endswith(".toml") else adapter_path(str(name_or_path))
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"{path}: {exc}") from None
    try:
        adapter = Adapter.model_validate({**raw, "source": str(path)})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ValueError(f"{path}: {where}: {first['msg']}") from None
    if adapter.name != path.stem:
        raise ValueError(f"{path}: name {adapter.name!r} differs from the file name {path.stem!r}")
    adapter.check()
    return adapter
