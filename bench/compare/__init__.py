"""Compare backends side by side on the same scenarios (`codemem-bench compare`).

`run_backends` replays the suite on each backend (repetitions interleaved);
`build_comparison` tests each against a reference backend, per scenario and category;
`write_outputs` writes comparison.json / .md, pareto.png and the TREC exports.
"""
from bench.compare.comparison import TestSettings, build_comparison, significant_losses
from bench.compare.direction import direction, worse_by
from bench.compare.outputs import write_outputs
from bench.compare.pairing import QueryMismatch, align, metric_names, unique_ids
from bench.compare.render import to_markdown, to_table
from bench.compare.runner import run_backends, slug
from bench.compare.significance import MetricTest, compare_metrics

__all__ = ["MetricTest", "QueryMismatch", "TestSettings", "align", "build_comparison", "compare_metrics",
           "direction", "metric_names", "run_backends", "significant_losses", "slug", "to_markdown",
           "to_table", "unique_ids", "worse_by", "write_outputs"]
