"""`<data>-files`: file localisation. Which files will this change touch?

The non-merge default-branch commits are recorded with the `commit` directive
(message and files) in time order. Before a sampled commit is recorded, its
subject and body ask `project_locate_files`; relevant: `file:<path>` of each
file it changes that was live before it (added by an earlier commit, under
this name or renamed to it, and not deleted since), graded by the lines it
changes there (`lines_grade`). No snapshot is indexed: the files at the tip
would tell the backend about files that do not exist yet.
"""
from __future__ import annotations

from .common import Qrels, alias, header, layout_of, lines_grade
from .dataset import Dataset
from .renames import FileHistory
from .sampling import in_split, spread
from .texts import MIN_QUERY_CHARS, message, query_text


def build(ds: Dataset, name: str, split: str = "scored") -> tuple[list[dict], Qrels]:
    work, layout = ds.work, layout_of(ds)
    fh = FileHistory()
    truth: dict[int, dict[str, int]] = {}
    for i, c in enumerate(work):
        live = {f["path"]: f for f in c["files"] if f["path"] in fh.live}
        if in_split(ds.position(c["sha"]), split) and live and len(query_text(c)) >= MIN_QUERY_CHARS:
            truth[i] = {p: lines_grade(None if f.get("added") is None else f["added"] + f["deleted"])
                        for p, f in live.items()}
        fh.apply(c)
    asked = spread(sorted(truth))
    steps: list[dict] = [{"directive": "session", "session_id": "project", "run_id": "replay",
                          "scope": f"repo:{ds.name}"},
                         {"directive": "branch", "name": ds.default_branch, "default": True}]
    qrels: Qrels = []
    clock = float(work[0]["commit_time"])
    for i, c in enumerate(work):
        clock = max(clock, float(c["commit_time"]))
        if i in asked:
            qid = f"f{c['sha'][:10]}"
            steps.append({"tool": "project_locate_files", "args": {"query": query_text(c), "top_k": 10},
                          "id": qid, "category": layout.category(sorted(truth[i]))})
            qrels += [(qid, f"file:{p}", g) for p, g in sorted(truth[i].items())]
        steps.append({"directive": "commit", "sha": c["sha"], "parent": (c["parents"] or [None])[0],
                      "files": [f["path"] for f in c["files"]], "message": message(c), "time": clock,
                      "as": alias(c["sha"])})
    head = header(ds, name, f"File localisation on the real {ds.name} history: before a commit is recorded, its "
                  "subject and body ask which files it will change, over the earlier commit memories; relevant: "
                  "the live files it changed, graded by lines changed.", work[0]["commit_time"], [], name)
    return [head, *steps], qrels
