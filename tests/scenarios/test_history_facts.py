"""The real-history truth rules of scenarios/README.md ("Knowledge truth from real history")."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scenarios" / "generators"))
import history_facts as hf  # noqa: E402

PATCH = """diff --git a/pkg/db.py b/pkg/db.py
--- a/pkg/db.py
+++ b/pkg/db.py
@@ -10,7 +10,8 @@ class Table:
     x = 1
@@ -40,3 +41,4 @@ def insert_all(self, records):
+    pass
diff --git a/docs/a-b/x.py b/docs/a-b/x.py
--- a/docs/a-b/x.py
+++ b/docs/a-b/x.py
@@ -1,2 +1,3 @@ async def fetch(url):
+    pass
"""


def commit(i, subject="s", body="", patch=PATCH, files=(("pkg/db.py", 2, 1),), sha=None, time=1_600_000_000):
    return {"index": i, "sha": sha or f"{i:040x}", "parents": ["p"], "subject": subject, "body": body,
            "patch": patch, "commit_time": time, "files": [{"path": p, "added": a, "deleted": d} for p, a, d in files]}


def test_functions_come_from_hunk_header_context_per_file():
    assert hf.functions(commit(1)) == [("pkg/db.py", "Table"), ("pkg/db.py", "insert_all"), ("docs/a-b/x.py", "fetch")]


def test_entities_follow_the_written_rules():
    c = commit(1, subject="Fix insert for #12, release 3.2.1", body="See #7 and https://x/y#frag, on 2020-05-01",
               files=[("pkg/__init__.py", 1, 0), ("pkg/db.py", 2, 1), ("docs/a-b/x.py", 1, 0)])
    ents = set(hf.entities(c))
    assert {"file:pkg/__init__.py", "module:pkg", "module:pkg.db", "symbol:insert_all", "symbol:table",
            "issue:12", "issue:7", "version:3.2.1", "time:2020-05-01", "time:2020-09-13"} <= ents
    assert not any(e.startswith("module:docs") for e in ents)         # a-b is no identifier
    assert "issue:frag" not in ents and len([e for e in ents if e.startswith("issue:")]) == 2


def test_reverts_by_sha_in_body_or_by_quoted_subject():
    a, b = commit(1, subject="Add thing (#5)"), commit(2, subject="Other")
    r1 = commit(3, subject='Revert "Add thing (#5)" (#9)')
    r2 = commit(4, subject="Undo", body=f"This reverts commit {b['sha']}.")
    assert [(x["index"], y["index"]) for x, y in hf.reverts([a, b, r1, r2])] == [(3, 1), (4, 2)]


def test_rewrites_need_five_lines_and_half_of_what_was_added():
    e1 = commit(1, files=[("pkg/db.py", 8, 0)])
    e2 = commit(2, files=[("pkg/db.py", 20, 0)])
    c = commit(3)
    blame = {c["sha"]: {"origins": {e1["sha"]: 5, e2["sha"]: 9}}}
    assert [(x["index"], y["index"]) for x, y in hf.rewrites([e1, e2, c], blame)] == [(3, 1)]


def test_shared_functions_pair_consecutive_commits():
    cs = [commit(i) for i in range(3)]
    assert sorted((a["index"], b["index"]) for a, b in hf.shared_functions(cs)) == [(1, 0), (2, 1)]


def test_calibration_split_by_index():
    assert hf.is_calibration(commit(0)) and hf.is_calibration(commit(30)) and not hf.is_calibration(commit(31))
