"""TREC run and qrels files, so that an independent library can re-score a report.

Layout under the export folder: `<scenario>/qrels` (lines `qid 0 docid grade`, from the
scenario's judgements) and `<scenario>/<backend>.run` (lines `qid Q0 docid rank score tag`,
from the report's per-query `retrieved` lists, which are in the backend's own order). A report
keeps only each query's top k, so the run holds at most k documents per query; repeated ids
are dropped (the metrics count an id once, at its best rank). Ranks follow the backend's
order, and the score column is n - rank + 1, not the backend's score: trec_eval and ranx
re-sort a run by score, so scores that strictly decrease with rank make them grade the order
the backend returned (as the harness does), with no tie to reorder.

Every judged query is in every run, so ranx (`Run.from_file` + `evaluate`, no `make_comparable`)
and trec_eval grade the run as it is: a query the backend returned nothing for (or could not run)
gets the one line `qid Q0 %none% 1 0 tag`, since a TREC run cannot express an empty ranking. The
id `%none%` is never judged and cannot be a real id (a real id's `%` is always followed by two hex
digits), so every metric scores that query 0, as it would an empty ranking. A scenario with no
judgement gets no files, so no file is ever empty. Query ids repeated in a scenario get `~2`, `~3`.
Whitespace and `%` in ids are percent-encoded, since TREC files split on whitespace.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bench.metrics import dedupe
from bench.report.query_ids import unique_ids
from bench.scenario.model import Scenario

_UNSAFE = re.compile(r"[\s%]")
NO_RESULT = "%none%"  # stands for an empty ranking; no trec_id() output can equal it


def trec_id(value: str) -> str:
    """`value` with whitespace and `%` percent-encoded (an empty id is an error)."""
    if not value:
        raise ValueError("an empty id cannot be written to a TREC file")
    return _UNSAFE.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode()), value)


def qrels_lines(scenario: Scenario) -> list[str]:
    """The judgements of every ranked query of `scenario`, in scenario order."""
    steps = scenario.queries
    ids = unique_ids([{"id": s.id or f"line{s.line}"} for s in steps])
    return [f"{trec_id(q)} 0 {trec_id(doc)} {grade}"
            for q, s in zip(ids, steps) for doc, grade in s.expect.grades().items()]


def run_lines(per_query: list[dict[str, Any]], tag: str) -> list[str]:
    """One line per retrieved id of each query of a report's scenario section; `NO_RESULT` for none."""
    out = []
    for q, rec in zip(unique_ids(per_query), per_query):
        docs = dedupe(rec["retrieved"])
        out += [f"{trec_id(q)} Q0 {trec_id(d)} {rank} {len(docs) - rank + 1} {trec_id(tag)}"
                for rank, d in enumerate(docs, start=1)] or [f"{trec_id(q)} Q0 {NO_RESULT} 1 0 {trec_id(tag)}"]
    return out


def _write(path: Path, lines: list[str]) -> Path:
    if not lines:  # an empty TREC file breaks readers (ranx raises on it)
        raise ValueError(f"{path}: nothing to write")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def export_trec(out_dir: Path, scenarios: list[Scenario], runs: dict[str, dict[str, dict[str, Any]]]
                ) -> dict[str, dict[str, str]]:
    """Write qrels and one run per backend for each scenario with ranked queries.

    `runs` maps a backend spec to its report's scenario sections. Returns, per scenario,
    `qrels` and each backend's run file, as paths relative to `out_dir`.
    """
    written: dict[str, dict[str, str]] = {}
    for sc in scenarios:
        qrels = qrels_lines(sc)
        if not qrels:
            continue
        files = {"qrels": _write(out_dir / sc.name / "qrels", qrels)}
        for backend, sections in runs.items():
            slug = backend.replace(":", "-")
            files[backend] = _write(out_dir / sc.name / f"{slug}.run", run_lines(sections[sc.name]["per_query"], slug))
        written[sc.name] = {k: str(p.relative_to(out_dir)) for k, p in files.items()}
    return written
