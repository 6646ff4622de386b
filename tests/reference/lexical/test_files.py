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


def test_text_part_is_bm25_over_the_file_documents_of_the_visible_memories():
    """A file's document is the distinct terms of every memory that touched it: a file no `top` memory reaches
    still gets the query's BM25 over its document (by hand below); a memory `memory_scores` rules out (-inf: a
    branch filter, a removal) adds nothing to any document."""
    index, files, touched = LexicalIndex(), FileIndex(), [["a.py"], ["a.py", "b.py"], ["c.py"]]
    for mid, text in [("m0", "csv export"), ("m1", "csv import"), ("m2", "fix the parser")]:
        row = index.add(mid, text)
        files.note(row, touched[row], index.terms(row))
    p = FileParams(top=1, path_weight=0.0, recency_weight=0.0, text_weight=1.0)
    scores = np.array([0.0, 0.0, 1.0])      # the one `top` memory touched c.py only

    def ranked(scores, p):
        return dict(file_scores(index, files, "csv import", scores, p, touched.__getitem__))
    got = ranked(scores, p)
    # documents: a.py = {csv, export} + {csv, import} (length 4), b.py = {csv, import} (2), c.py = {fix, parser} (2,
    # "the" is a stop word); avg 8 / 3; N 3; csv in a, b (df 2), import in a, b (df 2); k1 1.2, b 0.75
    idf = math.log(1.0 + (3 - 2 + 0.5) / (2 + 0.5))

    def bm(tf, length):
        return idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / (8 / 3)))

    a, b = bm(2, 4) + bm(1, 4), bm(1, 2) + bm(1, 2)
    assert got == pytest.approx({"c.py": 1.0, "a.py": a / max(a, b), "b.py": b / max(a, b)})
    assert ranked(scores, p.with_(text_weight=0.0)) == {"c.py": 1.0}
    hidden = ranked(np.array([0.0, -np.inf, 1.0]), p)      # m1 ruled out
    assert "b.py" not in hidden and hidden["a.py"] == pytest.approx(1.0)                        # a.py from m0 alone


def test_file_index_rows_never_noted_touch_nothing():
    index, files = LexicalIndex(), FileIndex()
    index.add("m0", "csv export")
    row = index.add("m1", "csv import")
    files.note(row, ["b.py"], index.terms(row))             # row 0 was never noted
    assert files.text_scores(index, "csv", np.array([True, True]), 1.2, 0.75).keys() == {"b.py"}
