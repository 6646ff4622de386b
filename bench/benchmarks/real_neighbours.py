"""The knowledge layer's neighbour lookup on real text: the index's answers against the exact scan's.

`real_texts(root)` reads the shipped histories (`scenarios/data/<repo>/commits.jsonl`): each commit's
subject, body and the first 800 characters of its patch, then each of its first 40 diff hunks (800
characters) under its subject, repositories in name order. `neighbour_recall` embeds them with the
default embedder into a bare `VectorCache` (memory rows, keys 1, 2, ...) and runs `live_neighbours`
both ways, as bench_scale.py does on synthetic records: the latest `batch` rows as one batch and the
latest `singles` one at a time. Texts that embed to a zero vector (which the cache stores as a
tombstone) are left out.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from bench.benchmarks.index_paths import EXACT, MEMORY_TAG, recall
from reference.embed.registry import get_embedder
from reference.knowledge.neighbours import live_neighbours
from reference.knowledge.relations import RELATE_THRESHOLD, VECTOR_CANDIDATES
from reference.vectors import VectorCache

HUNK = re.compile(r"\n(?=@@ )")


def real_texts(root: Path, limit: int | None = None) -> list[str]:
    """Commit texts and hunk texts of every shipped history, at most `limit` (all when None)."""
    out: list[str] = []
    for path in sorted((root / "scenarios" / "data").glob("*/commits.jsonl")):
        with path.open(encoding="utf-8") as f:
            for line in f:
                c = json.loads(line)
                patch = c.get("patch") or ""
                out.append(f"{c['subject']}\n{c.get('body') or ''}\n{patch[:800]}")
                out.extend(f"{c['subject']}\n{h[:800]}" for h in HUNK.split(patch)[1:41])
                if limit is not None and len(out) >= limit:
                    return out[:limit]
    return out


def neighbour_recall(data_dir: Path, texts: list[str], forced: int, batch: int = 1_000, singles: int = 30
                     ) -> tuple[float, float, int, int]:
    """(mean, worst) top-`VECTOR_CANDIDATES` recall of the lookup through the index (forced on from
    `forced` rows) against the exact scan, the number of lookups, and the rows stored."""
    emb = get_embedder()
    vecs = np.concatenate([emb.embed(texts[i: i + 5_000]) for i in range(0, len(texts), 5_000)])
    vecs = vecs[vecs.any(axis=1)]
    vc = VectorCache(data_dir, emb.dim)
    try:
        vc.put_many(np.arange(1, len(vecs) + 1), vecs, tags=MEMORY_TAG)
        entries = [SimpleNamespace(key_hash=int(h)) for h in range(len(vecs) - batch + 1, len(vecs) + 1)]
        store = SimpleNamespace(vectors=vc)
        top = lambda hs: sorted(hs, key=lambda h: (-h[1], h[0]))[:VECTOR_CANDIDATES]  # noqa: E731
        both = {}
        for label, least in (("index", forced), ("exact", EXACT)):
            vc.index_min_rows = least
            one = [live_neighbours(store, [e], VECTOR_CANDIDATES, RELATE_THRESHOLD)[0] for e in entries[-singles:]]
            both[label] = [top(g) for g in one + live_neighbours(store, entries, VECTOR_CANDIDATES, RELATE_THRESHOLD)]
        mean, worst = recall(list(zip(both["index"], both["exact"])))
        return mean, worst, len(both["exact"]), len(vecs)
    finally:
        vc.close()
