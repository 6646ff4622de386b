"""Exports of runs and judgements in formats other tools read (TREC, for ranx and trec_eval)."""
from bench.export.trec import export_trec, qrels_lines, run_lines, trec_id

__all__ = ["export_trec", "qrels_lines", "run_lines", "trec_id"]
