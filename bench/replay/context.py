"""What a step handler sees: the backend, the logical clock, aliases and the session."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reference.clock import LogicalClock

from bench.backends.interface import Backend


class AliasError(KeyError):
    """A step refers to `$name` before any step bound `name`."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass
class ReplayContext:
    """Mutable state of one replay, passed to every step handler."""

    backend: Backend
    clock: LogicalClock
    scenario_dir: Path
    workdir: Path
    aliases: dict[str, str] = field(default_factory=dict)
    session: dict[str, str | None] = field(
        default_factory=lambda: {"scope": None, "run_id": None, "task_id": None, "session_id": None})
    state: dict[str, Any] = field(default_factory=dict)  # per-area scratch (branch, checkpoints, ...)

    def resolve(self, value: Any) -> Any:
        """Replace every string `$alias` (in nested lists/dicts too) with the backend id it names."""
        if isinstance(value, str) and value.startswith("$") and len(value) > 1:
            name = value[1:]
            if name not in self.aliases:
                raise AliasError(f"alias {name!r} is not bound by any earlier step")
            return self.aliases[name]
        if isinstance(value, list):
            return [self.resolve(v) for v in value]
        if isinstance(value, dict):
            return {k: self.resolve(v) for k, v in value.items()}
        return value

    def bind(self, name: str, backend_id: str) -> None:
        """Bind alias `name` to a backend id, keeping the reverse map current in O(1)."""
        rebound = name in self.aliases
        self.aliases[name] = backend_id
        rev = self.state.get("_reverse")
        if rev is None:
            return
        if rebound:   # rare: the old id may still belong to another alias, so rebuild on next use
            self.state["_reverse"] = None
        else:         # a new alias is the last bound, so it wins an id it shares, as in a rebuild
            rev[backend_id] = name
            self.state["_reverse_n"] += 1

    def to_scenario_id(self, backend_id: str) -> str:
        """Map a backend id back to the alias that bound it (or leave it as is)."""
        return self._reverse().get(backend_id, backend_id)

    def _reverse(self) -> dict[str, str]:
        """backend id -> the last alias bound to it; rebuilt only if `aliases` changed outside `bind`."""
        rev = self.state.get("_reverse")
        if rev is None or self.state.get("_reverse_n") != len(self.aliases):
            rev = {v: k for k, v in self.aliases.items()}
            self.state["_reverse"], self.state["_reverse_n"] = rev, len(self.aliases)
        return rev

    def path(self, rel: str) -> Path:
        """A path named by a scenario, relative to the scenario file's folder."""
        p = Path(rel)
        return p if p.is_absolute() else (self.scenario_dir / p)
