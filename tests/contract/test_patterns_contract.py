"""Contract of `patterns` (seed 000 §1, §4.4, §5.2): pattern sets loaded, listed and scanned.

The definition of a set is its list of regular expressions; a backend's matches must equal what
Python's `re.finditer` finds over them (non-empty matches, each pattern on its own, byte offsets,
sorted by start then pattern index), the way the `patterns` scenario's expectations are made.
- `pattern_load(id, patterns, description, tags)` returns the set's info (`pattern_count`); a set
  whose pattern the engine cannot compile is refused with ValueError naming the pattern's number,
  and nothing of it is loaded. `pattern_list` lists the loaded sets and the built-in `pat:secrets`
  and `pat:security-smells`.
- `pattern_scan(set, target_key)` scans the content stored under a key hash (seed 000 §9): a
  memory's text, or an indexed file (needs `code.index`). An unknown set is refused naming it.
- `pattern_scan_memories(set, task, context)` gives {memory id: [pattern index as str, ...]} for the
  memories the task and context filters select that match at least once.
"""
import re

import pytest

from bench.backends import Capability as C

from tests.contract.conftest import need
from tests.contract.seed_keys import hash64

CAPABILITY = C.PATTERNS

TODO = ["TODO\\(\\w+\\)", "FIXME", "\\bXXX\\b", "HACK:\\s*\\w+"]
TEXTS = [
    ("TODO(ana): drop the legacy path once clients upgrade. FIXME flaky retry.", "task:refactor", ["context:backend"]),
    ("HACK: pin the parser; XXX remove after 2.0. Another TODO(bo) here.", "task:debug", ["context:backend"]),
    ("Nothing deferred in this note about caching wheels.", "task:refactor", ["context:frontend"]),
    ("FIXME FIXME: both the web form and the API accept HACK:  spaces", "task:refactor", ["context:frontend"]),
]


def re_matches(patterns, data: bytes):
    out = [[i, m.start(), m.end()] for i, p in enumerate(patterns) for m in re.finditer(p.encode(), data)
           if m.end() > m.start()]
    return sorted(out, key=lambda x: (x[1], x[0], x[2]))


def labels(patterns, text):
    return sorted({str(i) for i, _, _ in re_matches(patterns, text.encode())}, key=int)


def test_load_returns_the_count_and_list_shows_the_set_and_the_builtins(backend):
    info = backend.pattern_load("pat:contract-todo", TODO, "deferred work", ["hygiene"])
    assert info["pattern_count"] == len(TODO)
    ids = [s["id"] for s in backend.pattern_list()]
    assert {"pat:contract-todo", "pat:secrets", "pat:security-smells"} <= set(ids)


def test_an_uncompilable_set_is_refused_whole(backend):
    with pytest.raises(ValueError, match="#1"):
        backend.pattern_load("pat:contract-bad", ["ok", "foo(?=bar)"])
    assert "pat:contract-bad" not in [s["id"] for s in backend.pattern_list()]


def test_scan_of_a_memory_key_equals_re_finditer(backend, backend_clock):
    need(backend, C.MEMORY_WRITE)
    backend.pattern_load("pat:contract-todo2", TODO)
    for text, task, ctx in TEXTS:
        backend_clock.advance(1)
        mid = backend.write_memory(text, task=task, context=ctx)
        assert backend.pattern_scan("pat:contract-todo2", hash64(mid)) == re_matches(TODO, text.encode())


# the memories of the next test are the only ones in the module these patterns can match ("zq7")
MARKED = ["TODO\\(zq7\\)", "FIXMEzq7", "XXXzq7\\b", "HACK:\\s*zq7"]
MARKED_TEXTS = [
    ("TODO(zq7): drop the legacy path. FIXMEzq7 flaky retry.", "task:refactor", ["context:backend"]),
    ("HACK: zq7 pin the parser; XXXzq7 remove after 2.0. TODO(zq7) again.", "task:debug", ["context:backend"]),
    ("Nothing deferred here, zq7 alone is no match.", "task:refactor", ["context:frontend"]),
    ("FIXMEzq7 FIXMEzq7: the form and the API accept HACK:   zq7 spaces", "task:refactor", ["context:frontend"]),
]


def test_scan_memories_equals_re_over_the_filtered_memories(backend, backend_clock):
    need(backend, C.MEMORY_WRITE)
    backend.pattern_load("pat:contract-marked", MARKED)
    ids = []
    for text, task, ctx in MARKED_TEXTS:
        backend_clock.advance(1)
        ids.append(backend.write_memory(text, task=task, context=ctx))

    def want(task=None, ctx=None):
        return {i: labels(MARKED, t) for i, (t, tk, c) in zip(ids, MARKED_TEXTS)
                if (task is None or tk == task) and (ctx is None or set(ctx) <= set(c)) and labels(MARKED, t)}

    assert len(want()) == 3 and want() != want(task="task:refactor")   # the expectations are not trivial
    assert backend.pattern_scan_memories("pat:contract-marked") == want()
    assert backend.pattern_scan_memories("pat:contract-marked", task="task:refactor") == want(task="task:refactor")
    assert backend.pattern_scan_memories("pat:contract-marked", context=["context:frontend"]) == want(
        ctx=["context:frontend"])


def test_scan_of_an_indexed_file_equals_re_finditer(backend, tmp_path):
    need(backend, C.CODE_INDEX)
    smells = next(s for s in backend.pattern_list() if s["id"] == "pat:security-smells").get("patterns")
    if not smells:
        pytest.skip(f"{backend.label} does not list pat:security-smells' definitions")
    text = ("def handler(user_input, cmd, blob):\n    result = eval(user_input)\n"
            "    subprocess.call(cmd, shell=True)\n    data = pickle.loads(blob)\n    return Decimal(1) / 100\n")
    (tmp_path / "svc").mkdir()
    (tmp_path / "svc" / "handler.py").write_text(text)
    backend.index_file(tmp_path / "svc" / "handler.py", tmp_path)
    want = re_matches(smells, text.encode())
    assert len(want) >= 3
    assert backend.pattern_scan("pat:security-smells", hash64("file:svc/handler.py")) == want


def test_scanning_with_an_unknown_set_is_refused_by_name(backend, backend_clock):
    need(backend, C.MEMORY_WRITE)
    backend_clock.advance(1)
    mid = backend.write_memory("TODO(cy): a note to scan")
    with pytest.raises((LookupError, ValueError), match="pat:contract-nope"):
        backend.pattern_scan("pat:contract-nope", hash64(mid))
    with pytest.raises((LookupError, ValueError), match="pat:contract-nope"):
        backend.pattern_scan_memories("pat:contract-nope")
