"""The write path's builders give the very objects the frozen dataclasses' constructors give."""
from __future__ import annotations

import dataclasses

import pytest

from reference.knowledge.model import ExtractedMention, Relationship, mention, relationship

REL = ("m2", "m1", "relates_to", 0.61, {"similarity": 0.61}, "2026-01-01T00:00:00Z")
MENTION = ("file", "src/a.py", "src/a.py", 3, 11, "src/a.py", 0.95, "path", {"kind": "x"})


@pytest.mark.parametrize("build, cls, args", [(relationship, Relationship, REL), (mention, ExtractedMention, MENTION)])
def test_builder_equals_constructor(build, cls, args):
    fast, slow = build(*args), cls(*args)
    assert type(fast) is cls
    assert fast == slow and hash(fast) == hash(slow)
    assert dataclasses.asdict(fast) == dataclasses.asdict(slow)
    assert repr(fast) == repr(slow)
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.confidence = 0.0


def test_builder_fields_follow_the_dataclass():
    """A field added to the dataclass must be added to its builder too (else the object lacks it)."""
    assert list(vars(relationship(*REL))) == [f.name for f in dataclasses.fields(Relationship)]
    assert list(vars(mention(*MENTION))) == [f.name for f in dataclasses.fields(ExtractedMention)]
