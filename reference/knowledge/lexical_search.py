"""Seed 001 §5 over the code-aware lexical ranking: the tuned search of `oracle_search` and the oracle-hybrid ranker.

The seed's hybrid search (`hybrid.py`: FTS5 0.4 + vector 0.6, score x relevance) with each part done as the
calibration split chose it (`reference/lexical`, values in `reference/lexical/params.py` `TUNED`):

1. Candidates: the seed's restrictions (structured filters, the temporal window on the effective date, the
   entity filter: `hybrid_lists.allowed_ids`), so a filter never leaves the top k short.
2. Ranking: the lexical layer's `ranked` list of the `POOL_FACTOR x limit` best (the seed's `limit * 2`):
   BM25 over code-aware terms + the normalised cosine of the nearest memories + relationships through shared
   files at query time + the recency prior that stands for the seed's decay.
3. `min_relevance` drops memories whose seed §4 relevance is below it, as the seed's search does.
4. `include_related`: the seed's enrichment through stored relationships (`hybrid._enrich`), unchanged.
5. Sort by score (ties by id), cut to `limit`. matchType is `hybrid` (the lexical score mixes every part),
   `related` for a memory the enrichment brought in; `components` holds the lexical score.

Which search `oracle_search` runs is fitted (`KnowledgeLayer.search`, `ORACLE_SEARCH`); the oracle-hybrid
ranker always runs this one with tuned constants. The caller records accesses.
"""
from __future__ import annotations

from typing import Any

from reference.knowledge.hybrid import _enrich, _relevances   # seed 001's enrichment and relevance, as they are
from reference.knowledge.hybrid_lists import allowed_ids
from reference.knowledge.model import OracleHit
from reference.lexical.params import LexicalParams
from reference.tracker import MemoryFilter

POOL_FACTOR = 2   # the seed's `limit * 2` candidates before enrichment


def lexical_search(store: Any, lexical: Any, params: LexicalParams, text: str, *, limit: int,
                   include_related: bool, after: float | None = None, before: float | None = None,
                   entity_filter: list[str] | None = None, min_relevance: float | None = None,
                   flt: MemoryFilter | None = None) -> list[OracleHit]:
    """The `limit` best hits for `text` (checked by the caller), best first, ties by id; `lexical` is the store's
    `LexicalLayer`, `after` / `before` Unix seconds."""
    allowed = allowed_ids(store, flt, after, before, entity_filter)
    ranked = lexical.ranked(text, params, POOL_FACTOR * limit, None if allowed is None else allowed.hashes)
    hits = {m: OracleHit(m, s, "hybrid", {"lexical": round(s, 6)}) for m, s in ranked}
    conn, now = store.tracker.conn(), store.clock.now()
    if min_relevance is not None:
        relevances = _relevances(conn, list(hits), now)
        hits = {m: h for m, h in hits.items() if relevances.get(m, 1.0) >= min_relevance}
    if include_related:
        _enrich(conn, hits, now, min_relevance, allowed)
    return sorted(hits.values(), key=lambda h: (-h.score, h.id))[:limit]
