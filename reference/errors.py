"""Exception hierarchy of the reference store.

Every error a caller can provoke with bad input derives from `StoreError`, so
a server or a harness can catch one type and report the message as is.
"""


class StoreError(Exception):
    """Base class: something the caller asked for cannot be done."""


class InvalidKey(StoreError, ValueError):
    """A canonical key does not fit its namespace's format."""


class KeyCollision(StoreError):
    """Two different canonical keys hash to the same 64-bit id (seed 003 §4.2: hard error)."""


class UnknownSlug(StoreError, ValueError):
    """A taxonomy slug is not in the ontology; the message lists the allowed ones."""


class NotFound(StoreError, KeyError):
    """A key, memory or record that the caller named does not exist."""

    def __str__(self) -> str:  # KeyError quotes its argument; keep the plain message
        return str(self.args[0]) if self.args else "not found"


class CorruptData(StoreError):
    """Stored bytes fail their checksum or framing; never answered from.

    `file` names the damaged file and `record` the record or key inside it
    (when the raiser knows them); the message always names the file.
    """

    def __init__(self, message: str, *, file: str | None = None, record: str | None = None) -> None:
        super().__init__(message)
        self.file = file
        self.record = record


CorruptionError = CorruptData  # the name issue 11 uses; one class


def corrupt(file: object, record: object, why: str) -> CorruptData:
    """A `CorruptData` whose message reads `<file>: <record>: <why>` (record quoted short)."""
    rec = None if record is None else _short(str(record))
    where = f"{file}: {rec}: " if rec is not None else f"{file}: "
    return CorruptData(where + why, file=str(file), record=rec)


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit] + "..."
