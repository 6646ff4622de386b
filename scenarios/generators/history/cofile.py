"""`<data>-history`: earlier commits that changed the same files (the looser memory-recall task).

Same memory stream as `<data>-blame`. Before a sampled commit is written, its
subject and body are asked; relevant: the earlier memories that changed one of
the same files (followed through renames, `renames.py`), hubs excepted
(`layout.hubs`), graded by the number of shared files, at most 3.
"""
from __future__ import annotations

from collections import defaultdict

from .common import NDCG_TARGET, Qrels, alias, header, layout_of, memory_stream, write_step
from .dataset import Dataset
from .layout import hubs
from .renames import FileHistory
from .sampling import in_split, spread
from .texts import MIN_QUERY_CHARS, query_text


def touches(work: list[dict]) -> list[set[str]]:
    """Per commit, the identities of the files it changed (renames followed up to that commit)."""
    fh, out = FileHistory(), []
    for c in work:
        fh.apply(c)
        out.append({fh.ident(f["path"]) for f in c["files"]})
    return out


def build(ds: Dataset, name: str, split: str = "scored") -> tuple[list[dict], Qrels]:
    work, layout = ds.work, layout_of(ds)
    touched = touches(work)
    hub = hubs(touched)
    by_file: dict[str, list[int]] = defaultdict(list)
    truth: dict[int, dict[int, int]] = {}
    for i, c in enumerate(work):
        grades: dict[int, int] = defaultdict(int)
        for f in touched[i] - hub:
            for j in by_file[f]:
                grades[j] += 1
        if in_split(ds.position(c["sha"]), split) and grades and len(query_text(c)) >= MIN_QUERY_CHARS:
            truth[i] = dict(grades)
        for f in touched[i] - hub:
            by_file[f].append(i)
    asked = spread(sorted(truth))
    steps, qrels = memory_stream(ds, layout, set(asked), lambda i, qid: [(qid, alias(work[j]["sha"]), min(g, 3)) for j, g in sorted(truth[i].items())])
    head = header(ds, name, f"Memory recall on the real {ds.name} history: {len(work)} commits written as memories; "
                  "before a commit, its subject and body ask for the earlier commits that changed the same "
                  "(non-hub, rename-followed) files, graded by the number of shared files.",
                  work[0]["commit_time"], [NDCG_TARGET], name)
    return [head, *steps], qrels
