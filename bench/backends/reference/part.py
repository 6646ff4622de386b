"""How a capability area plugs into the reference backend.

A part is a mixin of `ReferenceBackend`. It opens what it needs in
`_on_open` (the store is open by then: `self.store`, `self.data_dir`,
`self.clock`, `self.telemetry`) and releases it in `_on_close`, and hears of new sessions in `_on_context`, each calling
`super()` so every part in the chain runs.
"""
from __future__ import annotations


class ReferencePart:
    """Base of the cooperative open/close chain."""

    def _on_open(self) -> None:
        return None

    def _on_close(self) -> None:
        return None

    def _on_context(self, scope: str | None, run_id: str | None, task_id: str | None,
                    session_id: str | None) -> None:
        """A new session, run or task begins; parts that record ids take them here."""
        return None
