"""A lexical index that understands code, and the ranking parts built on it (issue 27).

- `terms.py`: code-aware terms (whole identifiers and paths plus their parts, stemmed); file entities.
- `index.py`: `LexicalIndex`, BM25 with the caller's k1 and b over those terms.
- `expansion.py`: query-time expansion through the files of the first-stage hits.
- `recency.py`: a recency prior over the write order.
- `ranking.py`: the pipeline (`hybrid_scores`), `top_rows`, `semantic_rerank`.
- `params.py`: `LexicalParams`; `TUNED` (fitted by `python3 -m bench.calibration`) and `SEED`.
- `layer.py`: `LexicalLayer.for_store(store)`, the index kept in step with a store's memories.
"""
from reference.lexical.index import LexicalIndex
from reference.lexical.params import SEED, TUNED, LexicalParams
from reference.lexical.ranking import hybrid_scores, semantic_rerank, top_rows

__all__ = ["LexicalIndex", "LexicalParams", "SEED", "TUNED", "hybrid_scores", "semantic_rerank", "top_rows"]
