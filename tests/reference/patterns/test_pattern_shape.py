"""Width and newline analysis that decides where start-of-match tracking is needed."""
from __future__ import annotations

import re

import pytest

from reference.patterns.pattern_checker import check_pattern


@pytest.mark.parametrize("pattern,flags,width,newline_free", [
    (r"abc", 0, 3, True),
    (r"a|bcd", 0, 3, True),
    (r"[a-z]{3,40}x", 0, 41, True),
    (r"a\s*b", 0, None, False),
    (r".+x", 0, None, True),
    (r".+x", re.DOTALL, None, False),
    (r"(?s:a.)", 0, 2, False),
    (r"[^a]+", 0, None, False),
    (r"[^\n]+", 0, None, True),
    (r"[^\s]+", 0, None, True),
    (r"\S+\w+\d", 0, None, True),
    (r"\D", 0, 1, False),
    (r"\W", 0, 1, False),
    (r"[\x00-\x20]", 0, 1, False),
    (r"x|y\n", 0, 2, False),
    (r"(?m)^a+$", 0, None, True),
    (r"a{5000}", 0, None, True),
])
def test_shape(pattern, flags, width, newline_free):
    shape = check_pattern(pattern, flags).shape
    assert (shape.max_width, shape.newline_free) == (width, newline_free)
    assert shape.needs_som == (width is None and not newline_free)
