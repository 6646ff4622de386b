"""Reports: per-scenario summaries, the `Report` object, the codemem-bench score."""
from bench.report.report import REPORT_SCHEMA_VERSION, Report
from bench.report.score import SCORE_VERSION, compute_score

__all__ = ["REPORT_SCHEMA_VERSION", "Report", "SCORE_VERSION", "compute_score"]
