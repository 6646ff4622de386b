"""Seed 001 §5 as a ranker: keyword + vector + relationships + temporal decay, over the code-aware lexical index.

Structured filters of the `Query` (task, context, insights, tags,
where_metadata) restrict the candidates like the store's own search;
`Query.options` carries the seed's search options (snake_case):
`after` / `before` (ISO-8601 or Unix seconds; the temporal filter),
`entity_filter` (entity ids such as `feature:auth`, or names),
`min_relevance` (float) and `include_related` (default `INCLUDE_RELATED`, fitted: below). Any other
option is an error. Results record an access (seed 001 §4), as oracle_search does.

The parts, each fitted on the calibration split (`python3 -m bench.calibration`,
values in reference/lexical/params.py `TUNED`):
- keyword: BM25 over code-aware terms (`reference/lexical/index.py`), normalised;
- vector: + `vector_weight` x the normalised cosine of the 100 nearest memories;
- relationships through shared entities, at query time: the files of the
  `expand_top` best first-stage hits, weighted by score x file idf, summed over
  the files each memory touched (`reference/lexical/expansion.py`), and the
  same through the files whose paths the query's words name (`named_files`); and the
  knowledge layer's stored `updates` / `extends` / `derives` relationships of
  the results (`include_related`, seed 001's enrichment: newer versions join,
  superseded ones are demoted), followed by default only if the calibration
  says it earns its place (`INCLUDE_RELATED`, `bench/calibration/enrichment.py`:
  on the history calibration split it costs .0030 nDCG@10, so it is off;
  seed 001's own search, `oracle_search` and `reference:seed-defaults`, always follows them);
- temporal decay: a recency prior over the write order, counted in write moments, multiplying the
  score as seed 001's decay does, score x (1 + w x prior) (`recency_form`, fitted; `reference/lexical/recency.py`);
  `min_relevance` still drops memories whose seed §4 relevance is below it.
At the seeds' values (`reference:seed-defaults`) it is the seed's own hybrid
search (`KnowledgeLayer.search`: FTS5 0.4 + vector 0.6, score x relevance).
The tuned search itself is `reference/knowledge/lexical_search.py`, which
`oracle_search` runs too (with the caller's `include_related`, default on).
"""
from __future__ import annotations

from typing import Any

from reference.knowledge import KnowledgeError, KnowledgeLayer
from reference.knowledge.model import OracleHit
from reference.lexical.layer import LexicalLayer
from reference.lexical.params import SEED, params_for
from reference.memories.record import SearchHit
from reference.rankers.base import Query
from reference.rankers.working_paths import near_first

OPTIONS = ("after", "before", "entity_filter", "min_relevance", "include_related")
# the tuned search's default for `include_related` (seed 001: true); fitted by bench/calibration/enrichment.py on
# the blame and history calibration split: .4262 off against .4232 on (a gain above one query's share, .0018)
INCLUDE_RELATED = False


class OracleHybridRanker:
    """Code-aware keyword + vector, expansion through shared files, recency prior, seed 001's enrichment."""

    name = "oracle-hybrid"

    def __init__(self, store: Any) -> None:
        self.store = store
        self.layer = KnowledgeLayer.for_store(store)
        self.params = params_for(store)
        LexicalLayer.for_store(store)   # attached now: the writes before the first search are indexed as they come

    def search(self, query: Query) -> list[SearchHit]:
        if query.paths:   # the memories that touched the agent's working files first (working_paths.py)
            return near_first(self.search, query)
        unknown = sorted(set(query.options) - set(OPTIONS))
        if unknown:
            raise KnowledgeError(f"oracle-hybrid: unknown option(s) {', '.join(unknown)}; known: {', '.join(OPTIONS)}")
        flt = self.store.memories.filter(query.task, query.context, query.insights, query.tags, query.where_metadata)
        if query.text is None or not query.text.strip():
            return self.store.search_memories(None, task=query.task, context=query.context, insights=query.insights,
                                              tags=query.tags, top_k=query.top_k, where_metadata=query.where_metadata)
        if query.top_k == 0:
            return []
        opts = query.options
        seed = self.params is SEED
        # tuned: oracle_search's lexical design whatever ORACLE_SEARCH says (this ranker is the lexical hybrid),
        # with the enrichment as fitted; at the seeds' values the seed's hybrid.py
        hits = self.layer.search(query.text, limit=query.top_k,
                                 include_related=bool(opts.get("include_related", True if seed else INCLUDE_RELATED)),
                                 after=opts.get("after"), before=opts.get("before"),
                                 entity_filter=opts.get("entity_filter"), min_relevance=opts.get("min_relevance"),
                                 flt=flt, details=False, design="seed" if seed else "lexical")
        return self._hits(hits)

    def _hits(self, hits: list[OracleHit]) -> list[SearchHit]:
        entries = self.store.tracker.memories.get_many(self.store.tracker.conn(),
                                                       [self.store.tracker.hash_fn(h.id) for h in hits])
        by_id = {e.id: e for e in entries.values()}
        return [SearchHit(h.id, "memory", h.score, by_id.get(h.id),
                          {"matchType": h.match_type, **h.components}) for h in hits if h.id in by_id]
