"""File localisation: which files a task described in words will touch.

Two kinds of evidence, fused by reciprocal rank (RRF, k = RRF_K):
- code: the store's semantic code search over indexed files and chunks; each
  path counts once, at the rank of its best file or chunk hit;
- history: the code-aware lexical file ranking over the branch-filtered
  project memories (`reference/lexical/files.py`: path BM25, the lexical
  scores (with their cosine part) of the memories that touched each file,
  BM25 over each file's document (its visible memories' words), file recency; constants
  fitted on the files task's calibration split, `python3 -m bench.calibration`);
  the file at rank r adds 1 / (RRF_K + r), under the path as the commits' `files_changed`
  spell it (the lexical index lowercases it, `_exact_paths`). At the seeds' values
  (`reference:seed-defaults`) the history evidence is the one set before any
  fit: the branch-filtered memories most similar to the query (cosine), each at
  rank r adding 1 / (RRF_K + r) / sqrt(n) to each of the n files it changed.
A path's score is the sum; ties are broken by path.
"""
from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

from reference.errors import InvalidKey
from reference.keys import file_key
from reference.lexical.layer import LexicalLayer
from reference.lexical.params import FILES_TUNED, SEED, params_for
from reference.lexical.terms import entity_terms
from reference.memories.record import SearchHit

RRF_K = 60
CODE_K = 40      # code hits read (chunks and files)
MEMORY_K = 20    # project memories read


def locate_files(project: Any, query: str, top_k: int = 10, *, branch: str | None = None) -> list[SearchHit]:
    """The `top_k` files most likely relevant to `query`, as `file:<path>` hits, best first."""
    scores: dict[str, float] = defaultdict(float)
    code_rank: dict[str, int] = {}
    for h in project.store.code_search(query, top_k=CODE_K):
        path = h.meta.get("path")
        if path and path not in code_rank:
            code_rank[path] = len(code_rank)
    for path, r in code_rank.items():
        scores[path] += 1.0 / (RRF_K + r)
    history = _history(project, query, branch)
    for path, s in history.items():
        scores[path] += s
    hits = []
    for path, s in sorted(scores.items(), key=lambda ps: (-ps[1], ps[0])):
        try:
            key = file_key(path)
        except InvalidKey:
            continue  # a path no file key can name (cannot be a search result)
        hits.append(SearchHit(key, "file", s, None, {"path": path, "code_rank": code_rank.get(path),
                                                      "history": round(history.get(path, 0.0), 6)}))
        if len(hits) == top_k:
            break
    return hits


def _history(project: Any, query: str, branch: str | None) -> dict[str, float]:
    """Path -> the history evidence (module docstring)."""
    history: dict[str, float] = defaultdict(float)
    params = params_for(project.store)
    if params is SEED:
        for r, h in enumerate(project.search(query, top_k=MEMORY_K, branch=branch)):
            files = [f for f in (h.entry.metadata.get("files_changed") or []) if isinstance(f, str)]
            for f in files:
                history[f] += 1.0 / (RRF_K + r) / math.sqrt(len(files))
        return history
    memories = project.store.memories
    allowed = memories.candidates(memories.filter(where_metadata=project.branch_filter(branch)))
    layer = LexicalLayer.for_store(project.store)
    ranked = layer.locate(query, params, FILES_TUNED, CODE_K, allowed)
    exact = _exact_paths(project.store, layer, [path for path, _ in ranked])
    for r, (path, _) in enumerate(ranked):
        history[exact.get(path, path)] += 1.0 / (RRF_K + r)
    return history


def _exact_paths(store: Any, layer: LexicalLayer, terms: list[str]) -> dict[str, str]:
    """Lexical file term -> the path as the memories' `files_changed` spell it.

    The lexical index names a file by its entity term (lowercased, a leading dot dropped: `README.md` ->
    `readme.md`, `.github/x.yml` -> `github/x.yml`), which is no file key the truth or a caller knows; the
    memory that last touched the file lists the exact path."""
    rows = {t: layer.files.last[t] for t in terms if t in layer.files.last}
    ids = {t: layer.index.ids[r] for t, r in rows.items()}
    tracker = store.tracker
    entries = tracker.memories.get_many(tracker.conn(), [tracker.hash_fn(m) for m in set(ids.values())])
    by_id = {e.id: e for e in entries.values()}
    out: dict[str, str] = {}
    for t, m in ids.items():
        e = by_id.get(m)
        for f in (e.metadata.get("files_changed") or []) if e is not None else []:
            if isinstance(f, str) and t in entity_terms(f):
                out[t] = f
                break
    return out
