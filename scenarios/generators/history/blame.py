"""`<data>-blame`: recall the earlier work that wrote the code a commit is about to change.

Every non-merge default-branch commit becomes a memory (subject, body, files,
a bounded patch summary) at its commit time. Before a sampled commit is
written, its subject and body are asked; relevant: the commits that last wrote
the lines it deletes or rewrites (`blame.jsonl`, `git blame -w` of the old side
of each hunk), graded by the number of those lines (`lines_grade`). Origins
that are merges or not on the default branch are not memories and are dropped.
"""
from __future__ import annotations

from .common import NDCG_TARGET, Qrels, alias, header, layout_of, memory_stream, lines_grade, write_step
from .dataset import Dataset
from .sampling import in_split, spread
from .texts import MIN_QUERY_CHARS, query_text


def build(ds: Dataset, name: str, split: str = "scored", with_paths: bool = False) -> tuple[list[dict], Qrels]:
    """The blame scenario; `with_paths` gives `<data>-blame-paths`: the same steps and truth, each query
    also carrying the paths its commit touches (the agent's working files)."""
    work, layout = ds.work, layout_of(ds)
    pos = {c["sha"]: i for i, c in enumerate(work)}
    truth: dict[int, dict[str, int]] = {}
    for i, c in enumerate(work):
        if not in_split(ds.position(c["sha"]), split):
            continue
        origins = {o: n for o, n in ds.blame.get(c["sha"], {}).items() if o in pos and pos[o] < i}
        if origins and len(query_text(c)) >= MIN_QUERY_CHARS:
            truth[i] = origins
    asked = spread(sorted(truth))
    steps, qrels = memory_stream(ds, layout, set(asked), lambda i, qid: [(qid, alias(o), lines_grade(n)) for o, n in sorted(truth[i].items())],
                                 with_paths)
    head = header(ds, name, f"Blame recall on the real {ds.name} history: {len(work)} commits written as memories "
                  "(message, files, patch summary) in time order; before a commit, its subject and body ask for "
                  "the earlier commits that last wrote the lines it changes (git blame), graded by lines."
                  + (" Each query also carries the paths the commit touches (the agent's working files; "
                     "a backend may use or ignore them)." if with_paths else ""),
                  work[0]["commit_time"], [NDCG_TARGET], name)
    return [head, *steps], qrels
