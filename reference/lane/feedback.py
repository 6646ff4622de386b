"""Feedback persistence and the feedback factor (seed 004 Phase 5 and §2 table).

Each `helpful` / `harmful` signal is one row of `lane_feedback`; a memory's
factor comes from its counts. The seed gives +10% / -30% / -50% in its table
and +10% helpful / -50% harmful in Phase 5; the three figures map to:

| counts                                   | state     | factor |
|------------------------------------------|-----------|--------|
| none, or as many harmful as helpful      | neutral   | 1.00   |
| more helpful than harmful                | helpful   | 1.10   |
| more harmful than helpful, some helpful  | disputed  | 0.70   |
| harmful only                             | harmful   | 0.50   |

So a memory only ever marked helpful gets Phase 5's +10%, one only marked
harmful Phase 5's -50%, and the table's -30% is the middle case. The factor
does not compound with the number of votes (scores stay bounded, and a later
vote the other way can always undo an earlier one). The aggregate is also
mirrored into the memory's metadata (`feedback_score`, `feedback_count`), as
Phase 5 packs it into JSONB; the table is the source the ranking reads.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from reference.lane.errors import LaneError

SIGNALS = ("helpful", "harmful")
FACTORS = {"neutral": 1.00, "helpful": 1.10, "disputed": 0.70, "harmful": 0.50}
MAX_FACTOR = max(FACTORS.values())


@dataclass(frozen=True)
class FeedbackState:
    """A memory's feedback counts and the factor they give."""

    memory_id: str
    helpful: int = 0
    harmful: int = 0

    @property
    def state(self) -> str:
        if self.helpful > self.harmful:
            return "helpful"
        if self.harmful > self.helpful:
            return "disputed" if self.helpful else "harmful"
        return "neutral"

    @property
    def factor(self) -> float:
        return FACTORS[self.state]

    def to_dict(self) -> dict:
        return {"memory_id": self.memory_id, "helpful": self.helpful, "harmful": self.harmful,
                "state": self.state, "factor": self.factor}


def feedback_factor(helpful: int, harmful: int) -> float:
    """The ranking factor for these counts (table above)."""
    return FeedbackState("", helpful, harmful).factor


def check_signal(signal: object) -> str:
    if signal not in SIGNALS:
        raise LaneError(f"feedback signal must be one of {', '.join(SIGNALS)}, got {signal!r}")
    return str(signal)


class FeedbackTable:
    """Rows of `lane_feedback`; every method takes the caller's connection.

    `redact` (the store's redactor) is applied to a session id before it is stored.
    """

    def __init__(self, redact: Callable[[str], str] = lambda text: text) -> None:
        self._redact = redact

    def add(self, conn: sqlite3.Connection, memory_id: str, signal: str, session_id: str | None,
            created_at: float) -> None:
        session = self._redact(session_id) if isinstance(session_id, str) else None
        conn.execute("INSERT INTO lane_feedback(memory_id, signal, session_id, created_at) VALUES (?,?,?,?)",
                     (memory_id, check_signal(signal), session, created_at))

    def states(self, conn: sqlite3.Connection, memory_ids: Iterable[str]) -> dict[str, FeedbackState]:
        """Counts for the listed memories that have any feedback (others are neutral)."""
        ids = list(dict.fromkeys(memory_ids))
        out: dict[str, FeedbackState] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start: start + 500]
            rows = conn.execute(
                "SELECT memory_id, sum(signal = 'helpful'), sum(signal = 'harmful') FROM lane_feedback "
                f"WHERE memory_id IN ({','.join('?' * len(chunk))}) GROUP BY memory_id", chunk).fetchall()
            out.update({m: FeedbackState(m, int(h), int(x)) for m, h, x in rows})
        return out

    def all_states(self, conn: sqlite3.Connection) -> list[FeedbackState]:
        """Counts of every memory that has any feedback (proportional to the feedback given, not the store)."""
        rows = conn.execute("SELECT memory_id, sum(signal = 'helpful'), sum(signal = 'harmful') FROM lane_feedback "
                            "GROUP BY memory_id").fetchall()
        return [FeedbackState(m, int(h), int(x)) for m, h, x in rows]

    def state(self, conn: sqlite3.Connection, memory_id: str) -> FeedbackState:
        return self.states(conn, [memory_id]).get(memory_id, FeedbackState(memory_id))

    def forget(self, conn: sqlite3.Connection, memory_id: str) -> None:
        conn.execute("DELETE FROM lane_feedback WHERE memory_id = ?", (memory_id,))
