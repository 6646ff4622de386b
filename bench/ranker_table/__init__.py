"""The ranker table of issue 27: every reference ranker with every embedder on every history task, beside the
recency and BM25 baselines, plus a store write's cost per memory with each embedder (README.md)."""
