"""A relationship as the tuple its `relationships` row is inserted from: metadata already JSON.

    row = relates(source, target, 0.61, now)   # (source, target, "relates_to", 0.61, '{"similarity":0.61}', now)

The rules (`relations.py`) build about ten rows per written memory; a live write only stores
them, so they go straight to the INSERT (`relationship_table.insert_row_tuples`) without a
`Relationship` or a metadata dict in between. Each shape is a fixed template with only its
values formatted, and the text is exactly what `relationship_table._JSON` (json, keys sorted,
ASCII-escaped, compact) writes for the dict the rule describes: the same stored bytes.
`to_relationship` turns a row back into the record callers of `build` receive.
"""
from __future__ import annotations

import json
import math

from reference.knowledge.model import Relationship, relationship
from reference.knowledge.relationship_table import _JSON, value_json

Row = tuple   # (source_id, target_id, type, confidence, metadata JSON, created_at)
_STR = json.encoder.encode_basestring_ascii   # the escaping `ensure_ascii=True` gives every string
_isfinite = math.isfinite


def _num(x: object) -> str:
    # json writes a finite float as float.__repr__ (also for a numpy float64, a float subclass)
    return float.__repr__(x) if isinstance(x, float) and _isfinite(x) else value_json(x)  # type: ignore[arg-type]


def rounded(sim: float) -> tuple[float, str]:
    """`(round(sim, 6), its JSON)` for a plain float: one fixed-point formatting instead of `round`
    and a shortest `repr` (which cost twice as much). Both roundings are dtoa's correctly rounded
    6-decimal one, so the digits agree; within [0.1, 0.9999995) the shortest repr of the result
    is those digits without trailing zeros. Elsewhere (or a float subclass): `round` and `_num`."""
    if type(sim) is float and 0.1 <= sim < 0.9999995:
        text = ("%.6f" % sim).rstrip("0")
        return float(text), text
    sim6 = round(sim, 6)
    return sim6, _num(sim6)


def relates(source: str, target: str, sim: float, created_at: str) -> Row:
    """`relates_to` by similarity: `{"similarity": sim}`."""
    return (source, target, "relates_to", sim, '{"similarity":' + _num(sim) + "}", created_at)


def different_subjects(source: str, target: str, sim: float, created_at: str) -> Row:
    """`relates_to` above the update threshold about other subjects: `{"differentSubjects": true, "similarity": sim}`."""
    return (source, target, "relates_to", sim, '{"differentSubjects":true,"similarity":' + _num(sim) + "}",
            created_at)


def similar(source: str, target: str, type_: str, sim: float, reason: str | None, created_at: str) -> Row:
    """`updates` / `extends` with the similarity and, when one is given, the reason."""
    if reason is None:
        return (source, target, type_, sim, '{"similarity":' + _num(sim) + "}", created_at)
    return (source, target, type_, sim, '{"reason":' + _text(reason) + ',"similarity":' + _num(sim) + "}", created_at)


def shared(source: str, target: str, confidence: float, entities: list[str], created_at: str) -> Row:
    """`relates_to` by shared entities: `{"sharedEntities": entities}`."""
    try:
        ents = "[" + ",".join(map(_STR, entities)) + "]"
    except TypeError:   # a non-text id (only a hand-edited table has one): the encoder's own text
        ents = _JSON(entities)
    return (source, target, "relates_to", confidence, '{"sharedEntities":' + ents + "}", created_at)


def derives(source: str, target: str, confidence: float, via: str, created_at: str) -> Row:
    """`derives` through one entity: `{"via": via}`."""
    return (source, target, "derives", confidence, '{"via":' + _text(via) + "}", created_at)


def _text(value: object) -> str:
    return _STR(value) if type(value) is str else value_json(value)


def to_relationship(row: Row) -> Relationship:
    """The `Relationship` the row stores (metadata parsed back: the same values, floats round-trip exactly)."""
    return relationship(row[0], row[1], row[2], row[3], json.loads(row[4]), row[5])
