"""The gate options an MCP adapter declares for its server's runs (`[gate]`, for nondeterministic servers).

A deterministic backend is gated with the gate's defaults: any quality drop beyond 0.01 that the paired
test confirms. A server whose answers vary from run to run would fail that on unchanged code, so its
adapter declares a measured tolerance (`[gate] min_effect`) and whether latency is gated; `codemem-bench
gate` applies them to a report of that backend unless the command line sets them.
"""
from __future__ import annotations

from dataclasses import dataclass

from bench.backends.mcp.adapter import load_adapter

# backends that are an adapter under another name
_ALIASES = {"reference-mcp": "reference"}


@dataclass(frozen=True)
class GatePolicy:
    """What the adapter says: the minimal effect, whether latency is gated, and where it was read."""

    min_effect: float
    latency: bool
    source: str

    def note(self) -> str:
        return (f"min effect {self.min_effect:g} and latency {'on' if self.latency else 'off'}, from "
                f"{self.source} [gate] (the server answers nondeterministically)")


def adapter_gate(backend: str) -> GatePolicy | None:
    """The `[gate]` of the adapter behind backend label `backend` (`mcp:NAME`, `reference-mcp`), if any.

    None for other backends, for an adapter without `[gate]`, and for an adapter that is not on this
    machine (a report made elsewhere is then gated with the defaults).
    """
    name = _ALIASES.get(backend) or (backend[4:] if backend.startswith("mcp:") else None)
    if not name:
        return None
    try:
        adapter = load_adapter(name)
    except ValueError:
        return None
    if adapter.gate is None:
        return None
    return GatePolicy(adapter.gate.min_effect, adapter.gate.latency, adapter.source)
