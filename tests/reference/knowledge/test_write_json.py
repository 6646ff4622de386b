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


@given(value=json_values)
def test_memory_row_json_is_json_dumps(value):
    assert _dump(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


@given(value=json_values)
def test_blob_record_json_is_json_dumps(value):
    from reference.memory_record import _RECORD_JSON
    assert _RECORD_JSON(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=False)
