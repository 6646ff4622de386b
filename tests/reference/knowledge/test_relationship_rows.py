"""The rules' row templates store exactly the JSON the encoder writes for the metadata they describe."""
from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from reference.knowledge import relationship_rows as rr
from reference.knowledge.relationship_table import _JSON

sims = st.floats(allow_nan=True, allow_infinity=True) | st.integers() | st.floats(0, 1).map(np.float64)
texts = st.text(max_size=12)


def _meta(row: tuple) -> str:
    return row[4]


@given(sim=sims)
def test_similarity_shapes(sim):
    assert rr.relates("n", "o", sim, "t") == ("n", "o", "relates_to", sim, _JSON({"similarity": sim}), "t")
    assert _meta(rr.different_subjects("n", "o", sim, "t")) == _JSON({"similarity": sim, "differentSubjects": True})
    assert _meta(rr.similar("n", "o", "extends", sim, None, "t")) == _JSON({"similarity": sim})


@given(sim=sims, reason=texts)
def test_reason_shape(sim, reason):
    row = rr.similar("n", "o", "updates", sim, reason, "t")
    assert row[:4] == ("n", "o", "updates", sim) and row[5] == "t"
    assert _meta(row) == _JSON({"similarity": sim, "reason": reason})


@given(ents=st.lists(texts, max_size=5) | st.lists(st.integers(), min_size=1, max_size=2), via=texts)
def test_entity_shapes(ents, via):
    assert _meta(rr.shared("n", "o", 0.6, ents, "t")) == _JSON({"sharedEntities": ents})
    assert _meta(rr.derives("n", "o", 0.7, via, "t")) == _JSON({"via": via})


def test_known_texts_and_round_trip():
    row = rr.similar("n", "o", "updates", 0.912345, "marker:caf\u00e9 \"now\"", "2026-01-01T00:00:00Z")
    assert row[4] == '{"reason":"marker:caf\\u00e9 \\"now\\"","similarity":0.912345}'
    rel = rr.to_relationship(row)
    assert (rel.source_id, rel.target_id, rel.type, rel.confidence, rel.created_at) == (
        "n", "o", "updates", 0.912345, "2026-01-01T00:00:00Z")
    assert rel.metadata == {"reason": "marker:caf\u00e9 \"now\"", "similarity": 0.912345}
    assert rr.shared("n", "o", 0.6, ["file:a.py", "symbol:f"], "t")[4] == '{"sharedEntities":["file:a.py","symbol:f"]}'
