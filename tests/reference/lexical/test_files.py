"""File localisation: history, path BM25 and recency parts, against hand computation."""
from __future__ import annotations

import math

import numpy as np
import pytest

from reference.lexical.files import FileIndex, file_scores
from reference.lexical.index import LexicalIndex
from reference.lexical.params import FileParams


def test_file_scores_add_history_path_and_recency():
    index, files = LexicalIndex(), FileIndex()
    for mid, text in [("m0", "csv export Files: sqlite_utils/cli.py, tests/test_cli.py"),
                      ("m1", "docs Files: docs/cli.rst"),
                      ("m2", "csv import Files: sqlite_utils/cli.py")]:
        row = index.add(mid, text)
        files.note(row, index.entities[row])
    scores = np.array([1.0, 0.0, 0.5])
    only_history = FileParams(top=2, path_weight=0.0, recency_weight=0.0)
    got = dict(file_scores(index, files, "csv", scores, only_history))
    cli = 1.0 / math.sqrt(2) + 0.5 / 1.0          # m0 shares its score among two files, m2 has one
    assert got == pytest.approx({"sqlite_utils/cli.py": 1.0, "tests/test_cli.py": (1.0 / math.sqrt(2)) / cli})
    with_path = dict(file_scores(index, files, "cli docs", scores, only_history.with_(path_weight=1.0)))
    assert with_path["docs/cli.rst"] > 0 and "docs/cli.rst" not in got   # found by its path alone
    recent = dict(file_scores(index, files, "csv", scores, only_history.with_(recency_weight=1.0, recency_scale=1.0)))
    assert recent["sqlite_utils/cli.py"] == pytest.approx(1.0 + 1.0)              # touched by the newest row
    assert recent["tests/test_cli.py"] == pytest.approx(got["tests/test_cli.py"] + math.exp(-2.0))


def test_history_power_and_share_favour_the_best_memory_over_many_middling_ones():
    """With score ** 2, one strong memory's file beats a file two weak memories touched (and with power 1 the
    two weak ones win); with share 1 a memory's score is divided by its file count, not its square root."""
    index, files = LexicalIndex(), FileIndex()
    for mid, text in [("m0", "a Files: src/strong.py"), ("m1", "b Files: src/weak.py"), ("m2", "c Files: src/weak.py")]:
        row = index.add(mid, text)
        files.note(row, index.entities[row])
    scores = np.array([1.0, 0.6, 0.6])
    p = FileParams(top=3, path_weight=0.0, recency_weight=0.0)
    assert [f for f, _ in file_scores(index, files, "x", scores, p)][0] == "src/weak.py"        # 1.2 > 1.0
    assert [f for f, _ in file_scores(index, files, "x", scores, p.with_(history_power=2.0))][0] == "src/strong.py"
    two = LexicalIndex(), FileIndex()
    row = two[0].add("m0", "a Files: src/x.py, src/y.py")
    two[1].note(row, two[0].entities[row])
    row = two[0].add("m1", "b Files: src/z.py")
    two[1].note(row, two[0].entities[row])
    got = dict(file_scores(two[0], two[1], "x", np.array([1.0, 0.6]), p.with_(history_norm=1.0)))
    assert got["src/x.py"] == pytest.approx(0.5 / 0.6) and got["src/z.py"] == 1.0
