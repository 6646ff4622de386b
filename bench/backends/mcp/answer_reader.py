"""Reading a tool's answer into the typed value a backend-interface method returns.

`AnswerReader` is the half of `McpBackend` that needs no server: given the operation, the adapter's
`[ops.<op>]` table and the answer (JSON), it evaluates the adapter's JMESPath fields (`id`, `hits`,
`scores`, `record`, `records`, `missing`, `deleted`, `result`) and checks the value's type. Every
mistake names the adapter file and the field.
"""
from __future__ import annotations

from typing import Any

from bench.backends.interface import Hit
from bench.backends.mcp.operations import OPERATIONS
from bench.backends.mcp.results import pick

NOT_FOUND = object()   # the server's error said the id does not exist (the adapter's `not_found`)
_RECORD_DEFAULTS = {"task": None, "insights": [], "context": [], "tags": [], "metadata": {}, "created_at": None}


class AnswerReader:
    """Mixin: `_read` and its helpers; the host sets `adapter`, `_values` and `storage_bytes()`."""

    def _read(self, op: str, spec: Any, answer: Any, values: dict[str, Any]) -> Any:
        """The answer as the typed value the interface method returns (by the operation's kind)."""
        kind = OPERATIONS[op].kind
        if kind == "none":
            return None
        if kind == "storage":
            return self.storage_bytes()
        if answer is NOT_FOUND:
            return False if kind == "deleted" else None
        if kind == "id":
            new_id = self._pick(op, "id", answer)
            if new_id in (None, ""):
                raise ValueError(f"{self._where(op, 'id')}: no id in the answer of {spec.tool}")
            return str(new_id)
        if kind == "hits":
            return self._hits(op, spec, answer, values.get("top_k", 10))
        if kind == "record":
            if spec.missing and self._pick(op, "missing", answer):
                return None
            raw = self._pick(op, "record", answer)
            return None if not raw else self._record(raw)
        if kind == "records":
            return [self._record(r) for r in self._pick(op, "records", answer) or []]
        if kind == "deleted":
            return True if not spec.deleted else bool(self._pick(op, "deleted", answer))
        value = self._pick(op, "result", answer) if spec.result else answer
        wrong = OPERATIONS[op].check_type(value)
        if wrong:
            raise ValueError(f"{self._where(op, 'result')}: expected {wrong} from {spec.tool}")
        return value

    def _pick(self, op: str, field: str, answer: Any) -> Any:
        """The adapter's expression `[ops.<op>].<field>` evaluated over the answer of the call just made."""
        expression = getattr(self.adapter.ops[op], field)
        return pick(expression, answer, where=self._where(op, field), values=self._values)

    def _where(self, op: str, field: str) -> str:
        return f"{self.adapter.source}: [ops.{op}].{field}"

    def _hits(self, op: str, spec: Any, answer: Any, top_k: int) -> list[Hit]:
        ids = self._pick(op, "hits", answer) or []
        scores = self._pick(op, "scores", answer) if spec.scores else None
        ids = [str(i) for i in ids][:top_k]
        if not scores or len(scores) < len(ids):
            scores = [float(len(ids) - r) for r in range(len(ids))]   # order only: the rank, descending
        return [Hit(i, float(s)) for i, s in zip(ids, scores)]

    def _record(self, raw: Any) -> dict[str, Any]:
        return {**_RECORD_DEFAULTS, **raw, "id": str(raw["id"])}

