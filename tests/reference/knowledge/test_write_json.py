"""The write path's JSON shortcuts give exactly the text `json.dumps` gives."""
from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from reference.knowledge.relationship_table import _JSON, _metadata_json
from reference.tracker.memories_table import _dump

json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                           max_leaves=12)


@given(x=st.floats(allow_nan=True, allow_infinity=True) | st.integers() | st.booleans() | st.none(),
       extra=st.none() | st.dictionaries(st.sampled_from(["reason", "differentSubjects"]), st.text(), max_size=2))
def test_relationship_metadata_json_is_the_encoders(x, extra):
    meta = {"similarity": x, **(extra or {})}
    assert _metadata_json(meta) == _JSON(meta)
    assert _metadata_json({"similarity": 0.525225}) == '{"similarity":0.525225}'


flat_values = (st.floats(allow_nan=True, allow_infinity=True) | st.integers() | st.booleans() | st.none()
               | st.text() | st.lists(st.text(), max_size=4) | st.lists(st.integers(), min_size=1, max_size=2))


@given(meta=st.dictionaries(st.sampled_from(["sharedEntities", "via", "reason", "similarity", "differentSubjects",
                                             "é", "a\"b", ""]) | st.text(max_size=3), flat_values, max_size=4)
       | st.dictionaries(st.text(max_size=3), json_values, max_size=3))
def test_every_relationship_metadata_shape_is_the_encoders(meta):
    assert _metadata_json(meta) == _JSON(meta)


def test_rule_metadata_shapes_are_written_directly_as_json_would():
    for meta in ({"sharedEntities": ["file:src/a.py", "feature:auth", "symbol:caf\u00e9"]},
                 {"similarity": 0.93, "reason": "marker:now uses"}, {"via": "module:os.path"},
                 {"similarity": 0.81, "differentSubjects": True}, {}):
        assert _metadata_json(meta) == json.dumps(meta, sort_keys=True, separators=(",", ":"))


@given(value=json_values)
def test_memory_row_json_is_json_dumps(value):
    assert _dump(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


@given(value=json_values)
def test_blob_record_json_is_json_dumps(value):
    from reference.memories.record import _RECORD_JSON
    assert _RECORD_JSON(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=False)
