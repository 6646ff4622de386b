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


def test_builder_similarity_rows_match_the_templates_for_every_float_kind():
    from types import SimpleNamespace

    from reference.knowledge.relations import KnownEntities, RelationshipBuilder
    builder = RelationshipBuilder(similar=None, cosines=None)
    entry = SimpleNamespace(id="new", text="plain text", metadata={})
    sims = [0.7123456789, np.float64(0.65), float("inf"), 0.55, 0.4, 0.6]
    near = [(SimpleNamespace(id=f"m{i}", text="x"), s) for i, s in enumerate(sims)]
    near.append((SimpleNamespace(id="new", text="x"), 0.6))   # itself: never linked
    rows = builder.rows(None, entry, lambda _d: True, "t", neighbours=near, known=KnownEntities({}))
    want = [rr.relates("new", f"m{i}", round(s, 6), "t") for i, s in enumerate(sims) if 0.5 < s <= 0.8]
    want.append(rr.similar("new", "m2", "extends", round(float("inf"), 6), None, "t"))
    assert rows == sorted(want, key=lambda r: r[1])
    assert rows[1][4] == '{"similarity":0.65}' and rows[2][4] == '{"similarity":Infinity}'


@given(ents=st.lists(st.sampled_from(["time", "file", "dir", "symbol", "module", "timex", "feature", "", "fil"])
                     .flatmap(lambda t: st.sampled_from([t, t + ":", t + ":a", t + ":b:c"])), max_size=8))
def test_known_entities_split_ids_by_their_type_as_the_definition_does(ents):
    from reference.knowledge.relations import NOT_SHARED, SUBJECT_TYPES, KnownEntities
    known = KnownEntities({"d": ents})
    assert known.shared("d") == sorted(e for e in ents if e.split(":", 1)[0] not in NOT_SHARED)
    assert known.subjects("d") == {e for e in ents if e.split(":", 1)[0] in SUBJECT_TYPES}
    assert known.shared("absent") == [] and known.subjects("absent") == frozenset()


@given(sim=st.floats(allow_nan=True, allow_infinity=True) | st.floats(0.0999, 1.0001) | st.floats(0, 1).map(np.float64)
       | st.integers(0, 10**6).map(lambda k: k / 10**6 + 5e-7) | st.integers(1, 127).map(lambda k: k / 128))
def test_rounded_is_round_and_its_json(sim):
    sim6, text = rr.rounded(sim)
    want = round(sim, 6)
    assert type(sim6) is type(want) and text == _JSON(want)
    assert sim6 == want or (sim6 != sim6 and want != want)


def test_rounded_at_exact_ties_and_the_range_ends():
    for sim in (65 / 128, 0.1, 0.9999995, 0.99999949, 0.1000005, 0.5):
        assert rr.rounded(sim) == (round(sim, 6), repr(round(sim, 6)))
