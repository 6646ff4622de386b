"""`FileIndex.text_scores` gives the plain definition's floats: BM25 over the file documents, recounted per file.

The fast path gathers each query term's visible rows' entries by row slice and keeps the documents' lengths
between calls, moved by the rows whose visibility changed; the plain computation below recounts every file's
document from the memories in Python. Checked float for float over random indexes with writes, removals,
rows never noted, rows re-filed with other files (`FileIndex.refile`) and partial `visible` masks, across several
calls on one index (the kept lengths); the path index and last touches are checked against the same definition.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.lexical.files import FileIndex
from reference.lexical.index import LexicalIndex, lucene_idf
from reference.lexical.terms import index_terms

WORDS = ["csv", "export", "import", "parser", "fix", "cli", "table", "insert", "docs", "token"]
FILES = ["a.py", "b.py", "pkg/c.py", "docs/d.rst", "tests/test_e.py", "f.md"]


def _plain(index: LexicalIndex, touched: dict[int, list[str]], query: str, visible: np.ndarray, k1: float,
           b: float) -> dict[str, float]:
    """The definition: a file's document is the distinct terms of every visible noted memory that touched it,
    its length their count; N and df count files with a nonempty document; a term no live memory holds adds
    nothing (as `LexicalIndex.bm25`); files the query misses left out."""
    vis = [r for r in touched if r < visible.size and visible[r]]
    length: dict[str, int] = {}
    for r in vis:
        for f in touched[r]:
            length[f] = length.get(f, 0) + len(index.terms(r))
    docs = sum(1 for v in length.values() if v)
    if docs == 0:
        return {}
    avg = sum(length.values()) / docs
    acc: dict[str, float] = {}
    for t in dict.fromkeys(index_terms(query)):
        post = index.postings.get(t)
        if post is None or not post.live:
            continue
        tf: dict[str, int] = {}
        for r in vis:
            if t in index.terms(r):
                for f in touched[r]:
                    tf[f] = tf.get(f, 0) + 1
        idf = lucene_idf(docs, len(tf))
        for f, n in tf.items():
            acc[f] = acc.get(f, 0.0) + idf * n * (k1 + 1.0) / (n + k1 * (1.0 - b + b * length[f] / avg))
    return {f: v for f, v in acc.items() if v > 0.0}


_MEMORY = st.tuples(st.lists(st.sampled_from(WORDS), min_size=0, max_size=6),
                    st.lists(st.sampled_from(FILES), max_size=3, unique=True), st.booleans())
_STEP = st.one_of(st.tuples(st.just("add"), _MEMORY),
                  st.tuples(st.just("remove"), st.integers(0, 40)),
                  st.tuples(st.just("refile"), st.integers(0, 40), st.lists(st.sampled_from(FILES), max_size=3,
                                                                            unique=True)),
                  st.tuples(st.just("query"), st.lists(st.sampled_from(WORDS + ["unknown"]), min_size=1, max_size=4),
                            st.sampled_from(["all", "alive", "random", "short"]), st.randoms()))


@settings(max_examples=300, deadline=None)
@given(st.lists(_STEP, max_size=40), st.sampled_from([(1.2, 0.75), (0.9, 0.4), (2.0, 1.0), (1.2, 0.0)]))
def test_text_scores_is_the_plain_definition(steps, params):
    k1, b = params
    index, files, touched = LexicalIndex(), FileIndex(), {}
    queried = 0
    for step in steps + [("query", ["csv", "fix", "docs"], "alive", None)]:
        if step[0] == "add":
            words, names, noted = step[1]
            row = index.add(f"m{index.rows}", " ".join(words) + " " + " ".join(names))
            if noted:            # a row never noted touches no file
                files.note(row, names, index.terms(row))
                touched[row] = names
        elif step[0] == "remove":
            if index.rows:
                index.remove(f"m{step[1] % index.rows}")
        elif step[0] == "refile":
            noted = sorted(touched)
            if noted:
                row = noted[step[1] % len(noted)]
                files.refile(row, step[2])
                touched[row] = step[2]
        else:
            _, words, mask, rnd = step
            visible = index.alive().copy()
            if mask == "all":
                visible[:] = True
            elif mask == "random":
                visible &= np.array([rnd.random() < 0.6 for _ in range(visible.size)], dtype=bool)
            elif mask == "short":
                visible = visible[: visible.size // 2]
            query = " ".join(words)
            got = files.text_scores(index, query, visible, k1, b)
            assert got == _plain(index, touched, query, visible, k1, b)
            _same_paths(files, touched, query)
            queried += 1
    assert queried >= 1


def _same_paths(files: FileIndex, touched: dict[int, list[str]], query: str) -> None:
    """The path index holds the files some noted row touches now, and each file's last touch is the last such row:
    what noting every row with its current files from the start gives."""
    last = {f: r for r in sorted(touched) for f in touched[r]}
    assert files.last == last
    assert set(files.paths.row_of) == set(last)
    fresh = LexicalIndex()
    for f in sorted(last):
        fresh.add(f, f)
    got, want = files.paths.bm25(query, 1.2, 0.75), fresh.bm25(query, 1.2, 0.75)
    assert {files.paths.ids[r]: s for r, s in enumerate(got.tolist()) if s > 0} == \
        {fresh.ids[r]: s for r, s in enumerate(want.tolist()) if s > 0}


def _noted(memories: list[tuple[str, list[str]]]) -> tuple[LexicalIndex, FileIndex]:
    """An index of (text, files touched) memories, ids m0, m1, ..., each noted in the file index."""
    index, files = LexicalIndex(), FileIndex()
    for i, (text, touched) in enumerate(memories):
        row = index.add(f"m{i}", text)
        files.note(row, touched, index.terms(row))
    return index, files


def test_refile_moves_a_rows_files_and_drops_a_file_nothing_touches():
    """A note bound to a commit: row 1's files become the commit's; `c.py` is left to no row, `b.py` to row 0."""
    index, files = _noted([("csv export", ["b.py"]), ("csv import fix", ["b.py", "c.py"]), ("parser", ["a.py"])])
    assert files.text_scores(index, "csv", np.ones(3, dtype=bool), 1.2, 0.75).keys() == {"b.py", "c.py"}
    files.refile(1, ["a.py", "d.py"])
    assert files.last == {"b.py": 0, "a.py": 2, "d.py": 1}
    assert set(files.paths.row_of) == {"a.py", "b.py", "d.py"}
    assert files.text_scores(index, "csv", np.ones(3, dtype=bool), 1.2, 0.75).keys() == {"a.py", "b.py", "d.py"}
    files.note(3, ["c.py"], ("x",))             # a file dropped from the path index comes back when touched again
    assert files.last["c.py"] == 3 and "c.py" in files.paths.row_of
    with pytest.raises(IndexError, match="row 9 was never noted"):
        files.refile(9, ["a.py"])


def test_text_scores_by_hand_after_a_mask_change_and_back():
    """Two files, three memories; the kept lengths follow a mask that hides a memory and then shows it again."""
    index, files = _noted([("csv export", ["a.py"]), ("csv import fix", ["a.py", "b.py"]), ("parser", ["b.py"])])
    every = np.ones(3, dtype=bool)
    full = files.text_scores(index, "csv", every, 1.2, 0.75)
    # a.py: length 2 + 3, tf 2; b.py: length 3 + 1, tf 1; N 2, df 2; avg 4.5
    idf = lucene_idf(2, 2)
    assert full == {"a.py": idf * 2 * 2.2 / (2 + 1.2 * (0.25 + 0.75 * 5 / 4.5)),
                    "b.py": idf * 1 * 2.2 / (1 + 1.2 * (0.25 + 0.75 * 4 / 4.5))}
    hidden = files.text_scores(index, "csv", np.array([True, False, True]), 1.2, 0.75)
    # a.py: length 2, tf 1; b.py: length 1, tf 0; N 2, df 1; avg 1.5
    assert hidden == {"a.py": lucene_idf(2, 1) * 2.2 / (1 + 1.2 * (0.25 + 0.75 * 2 / 1.5))}
    assert files.text_scores(index, "csv", every, 1.2, 0.75) == full
