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

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bench.backends.capabilities import Capability

BUILTIN_DIR = Path(__file__).parent / "adapters"

# The backend operations an adapter may map, with the arguments each one's templates can use.
OPERATIONS: dict[str, tuple[str, ...]] = {
    "write_memory": ("text", "task", "insights", "context", "tags", "metadata", "uid"),
    "get_memory": ("id",),
    "list_memories": ("task", "context", "limit", "offset"),
    "search_memories": ("query", "task", "context", "insights", "tags", "top_k", "where_metadata"),
    "keyword_search": ("query", "top_k"),
    "delete_memory": ("id",),
}
# The operations each capability needs mapped (a declared capability without them is an error).
NEEDS: dict[Capability, tuple[str, ...]] = {
    Capability.MEMORY_WRITE: ("write_memory",),
    Capability.MEMORY_GET: ("get_memory",),
    Capability.MEMORY_LIST: ("list_memories",),
    Capability.MEMORY_SEARCH: ("search_memories",),
    Capability.MEMORY_FILTERS: ("search_memories",),
    Capability.METADATA_FILTERS: ("search_memories",),
    Capability.KEYWORD_SEARCH: ("keyword_search",),
    Capability.MEMORY_DELETE: ("delete_memory",),
}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Install(_Strict):
    """How `codemem-bench peers install NAME` installs the server into the harness's peer folder."""

    npm: str | None = None          # an npm package spec, installed with `npm install --prefix <peer>`
    pip: str | None = None          # a pip requirement, installed into `<peer>/venv`
    python: str | None = None       # the interpreter for that venv, e.g. "3.12" (default: the harness's)
    check: str                      # a path under the peer folder that exists once installed


class Server(_Strict):
    command: str                    # may use {peer}, {python}, {data}, {side}
    args: list[str] = []
    env: dict[str, str] = {}
    startup_timeout_s: float = 60.0
    call_timeout_s: float = 120.0


class Operation(_Strict):
    """One backend operation as one tool call: the arguments to send and what to read from the answer."""

    tool: str
    args: dict[str, Any] = {}
    id: str | None = None           # JMESPath to the new memory's id (write_memory)
    hits: str | None = None         # JMESPath to the ranked ids, in the server's order (searches)
    scores: str | None = None       # JMESPath to their scores (optional; the order is what is graded)
    record: str | None = None       # JMESPath to a memory record with at least id and text (get_memory)
    records: str | None = None      # JMESPath to a list of records (list_memories)
    missing: str | None = None      # JMESPath true when get_memory found nothing
    deleted: str | None = None      # JMESPath true when delete_memory removed something
    not_found: str | None = None    # text of the server's error meaning "no such id" (get: None, delete: False)
    why: str = ""


class Clock(_Strict):
    """A server that takes the scenario's logical clock: the tool that sets it and its argument."""

    tool: str
    arg: str = "time"


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
    ops: dict[Literal["write_memory", "get_memory", "list_memories", "search_memories", "keyword_search",
                      "delete_memory"], Operation]
    source: str = ""                # the file it was read from (set by the loader)

    def check(self) -> None:
        """Every declared capability has the operations it needs mapped."""
        for cap in self.capabilities:
            for op in NEEDS.get(cap, ("(not mappable by an adapter)",)):
                if op not in self.ops:
                    raise ValueError(f"{self.source}: capability {cap.value!r} needs [ops.{op}]")
        for op, spec in self.ops.items():
            if spec.not_found is not None and op not in ("get_memory", "delete_memory"):
                raise ValueError(f"{self.source}: [ops.{op}].not_found: only get_memory and delete_memory take it")


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
