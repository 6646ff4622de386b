"""bench.calibration.files: a files query sees only the commits recorded before it; the fit prints every stage."""
from __future__ import annotations

import io

from bench.calibration.files import FileStream, evaluate_files, fit_files
from reference.embed import HashingEmbedder
from reference.lexical.params import FILES_TUNED, TUNED


def _stream(events) -> FileStream:
    emb = HashingEmbedder()
    st = FileStream("tiny", events=list(events))
    st.vectors = emb.embed([e[2] for e in st.events if e[0] == "commit"])
    st.qvectors = emb.embed([e[1] for e in st.events if e[0] == "query"])
    return st


def _commits(n):
    return [("commit", f"c{i}", f"change {i} token {'refresh' if i % 2 else 'cache'}\n\nFiles changed: src/mod{i % 3}.py",
             [f"src/mod{i % 3}.py"], float(i)) for i in range(n)]


def test_a_files_query_sees_only_the_commits_before_it():
    query = ("query", "token refresh in mod1", {"file:src/mod1.py": 2})
    before = _stream(_commits(4) + [query])
    after = _stream(_commits(1) + [query] + _commits(4)[1:])     # src/mod1.py is first touched after the query
    for fp in (FILES_TUNED, FILES_TUNED.with_(text_weight=0.0, vector_weight=0.0)):
        assert evaluate_files(before, TUNED, fp) > 0.5
        assert evaluate_files(after, TUNED, fp) == 0.0


def test_fit_files_prints_every_stage_and_the_choice():
    st = _stream(_commits(9) + [("query", "token refresh mod1", {"file:src/mod1.py": 2})] + _commits(12)[9:]
                 + [("query", "cache", {"file:src/mod0.py": 1, "file:src/mod2.py": 1})])
    out = io.StringIO()
    fp = fit_files([st], TUNED, out)
    text = out.getvalue()
    for title in ("history depth x path weight", "history share per file x score power", "recency weight x scale",
                  "file documents' BM25 weight", "the memory scores' cosine weight"):
        assert f"## files: {title}" in text
    assert text.count("| {'text_weight': ") == 5 and text.count("| {'vector_weight': ") == 6   # every setting
    assert f"chosen (reference/lexical/params.py FILES_TUNED): {fp}" in text
