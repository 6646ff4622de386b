"""Fit the lexical ranking's constants (reference/lexical/params.py) on the history calibration split.

    python3 -m bench.calibration.lexical [--data DIR]   # also run by `python3 -m bench.calibration`
    python3 -m bench.calibration.lexical --files-only [--data DIR]   # only `files.py`'s fit, with the committed TUNED

The calibration scenarios (`<data>-{blame,history,files}-calibration`, commits at
positions divisible by 10 only, never scored) are built into a temporary folder
from `scenarios/data/` (about 10 s; scenarios/README.md, "Calibration split"),
or read from `--data` where `codemem-bench scenarios build ... --split calibration`
put them. Every query is answered as the store would answer it when it was asked:
the memories written before it, in order, in a `LexicalIndex`, the query's
cosine with each of them (hashing-v1, the top 100, as the vector cache gives
them), then `reference.lexical.ranking.hybrid_scores`. The fit is joint over the
three datasets (a constant tuned to one repository would be tuned to it): the
mean nDCG@10 over the six blame and history scenarios, by stages over a small
fixed grid (BM25 k1 x b; then the vector weight; then expansion depth x weight;
then the files the query names; then the recency prior's weight x scale, the
prior added; the write moment; stop words; then the four fusion weights jointly
under each form of the prior, added or seed 001's multiplied, which chooses the
form), each stage keeping the best of the previous ones. A gain smaller than one query's share is a tie; ties go to the
value nearest the seed's (FTS5's k1 1.2 and b 0.75; seed 001's vector weight 0.6 / 0.4 = 1.5 of the
keyword's; no expansion, no prior: the seeds have neither; the prior multiplied, seed 001's decay). The files task's constants are fitted after
these, by `files.py` beside this file.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path
from statistics import fmean

import numpy as np

from bench.calibration import files, scenarios
from bench.calibration.scenarios import DATASETS

TASKS = ("blame", "history")
K1_GRID, B_GRID = (1.2, 1.5, 2.0, 3.0), (0.1, 0.2, 0.3, 0.5, 0.75)
VECTOR_GRID = (0.0, 0.1, 0.2, 0.3, 0.5, 1.0, 1.5)
EXPAND_TOP_GRID, EXPAND_WEIGHT_GRID = (0, 5, 8, 12), (0.5, 1.0, 1.5, 2.0, 3.0, 5.0)
EXPAND_NORM_GRID = (0.0, 0.5, 1.0)
RECENCY_WEIGHT_GRID, RECENCY_SCALE_GRID = (0.0, 0.2, 0.5, 0.7, 1.0, 1.5), (20.0, 50.0, 100.0, 200.0)
MAX_SHARE_GRID = (1.0, 0.5)
MOMENT_GRID = (0.0, 60.0, 600.0, 3600.0, 14400.0, 86400.0)
NAMED_TOP_GRID, NAMED_WEIGHT_GRID = (0, 3, 5, 10), (0.25, 0.5, 0.75, 1.0, 1.5)
FUSION_EXPAND_GRID, FUSION_NAMED_GRID = (1.0, 1.5, 2.0, 2.5, 3.0, 4.0), (0.0, 0.5, 0.75, 1.0, 1.5)
FUSION_RECENCY_GRID, FUSION_SCALE_GRID = (0.0, 0.5, 0.7, 1.0, 1.3, 1.6, 2.0, 2.5), (10.0, 20.0, 35.0, 50.0)
RERANK_CANDIDATES_GRID, RERANK_WEIGHT_GRID = (20, 50, 100), (0.0, 0.1, 0.2, 0.3, 0.5, 1.0)
VECTOR_POOL = 100


@dataclass
class Stream:
    """A scenario's memory writes and ranked memory queries, in order (what a query may see: what came before)."""

    name: str
    texts: list[str] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    times: list[float] = field(default_factory=list)   # each memory's write time (the scenario clock)
    commits: list[bool] = field(default_factory=list)  # each memory records the files it changed (metadata)
    queries: list[tuple[int, str, dict[str, int]]] = field(default_factory=list)   # (visible rows, text, grades)
    vectors: np.ndarray | None = None
    qvectors: np.ndarray | None = None

    def replay(self, moment: float | None = None):
        """Each query as the store answered it: (index of the memories written before it, query text, grades,
        cosine with each visible memory, the top VECTOR_POOL rows by cosine); `moment`: the index's."""
        from reference.lexical.index import LexicalIndex
        index = LexicalIndex() if moment is None else LexicalIndex(moment=moment)
        written = 0
        for qi, (visible, text, grades) in enumerate(self.queries):
            while written < visible:
                index.add(self.ids[written], self.texts[written], self.times[written] if self.times else None,
                          commit=bool(self.commits[written]) if self.commits else False)
                written += 1
            cos = self.vectors[:visible] @ self.qvectors[qi]
            yield index, text, grades, cos, np.argsort(-cos, kind="stable")[:VECTOR_POOL]


def load_stream(path: Path, oracle_root: Path | None = None) -> Stream:
    """The memory writes and memory searches of one scenario file, with the queries' judgements
    (from `oracle_root`, by default the `oracle_data/` beside the file)."""
    from reference.lexical.layer import recorded_files
    sc = scenarios.load(path, oracle_root)
    st = Stream(sc.name)
    for kind, step, now in scenarios.writes_and_queries(sc, "memory_write_structured", "memory_search_structured"):
        if kind == "query":
            st.queries.append((len(st.texts), step.raw_args["query"], step.expect.grades()))
        else:
            st.texts.append(step.raw_args["text"])
            st.ids.append(step.alias)
            st.times.append(now)
            st.commits.append(bool(recorded_files(step.raw_args.get("metadata"))))   # the lexical layer's rule
    from reference.embed import HashingEmbedder
    emb = HashingEmbedder()
    st.vectors = emb.embed(st.texts)
    st.qvectors = emb.embed([q for _, q, _ in st.queries])
    return st


def evaluate(st: Stream, params, ranker: str = "oracle-hybrid", rerank: tuple[int, float] | None = None,
             moment: float | None = None) -> float:
    """Mean nDCG@10 of the stream's queries, each asked over the memories before it, as `ranker` ranks
    them with `params` (and galaxybrain's re-rank (candidates, weight), default the committed one):

    - oracle-hybrid: `hybrid_scores` (keyword + cosine of the 100 nearest + expansion + recency prior;
      the store's ranker also applies seed 001's stored relationships, which this replay has not);
    - galaxybrain: `semantic_rerank` of the lexical pipeline's candidates (vector part off);
    - rrf: `rrf` of the lexical list, the cosine list and galaxybrain's list, 100 deep each.
    """
    from bench.metrics import ndcg
    from reference.lexical.params import RERANK_CANDIDATES, RERANK_WEIGHT
    from reference.lexical.ranking import hybrid_scores, semantic_rerank, top_rows
    from reference.rankers.rrf import DEPTH, rrf
    candidates, weight = rerank or (RERANK_CANDIDATES, RERANK_WEIGHT)
    out = []
    for index, text, grades, cos, near in st.replay(moment):
        if ranker == "oracle-hybrid":
            vector = (near, cos[near]) if params.vector_weight > 0 and cos.size else None
            scores = hybrid_scores(index, text, params, vector)
            ranked = [index.ids[r] for r, _ in top_rows(scores, 10, index.ids)]
        else:
            lexical = hybrid_scores(index, text, params.with_(vector_weight=0.0))
            galaxy = [index.ids[r] for r, _ in
                      semantic_rerank(lexical, max(candidates, DEPTH if ranker == "rrf" else 10),
                                      lambda rows: cos[rows], weight, index.ids)]
            if ranker == "galaxybrain":
                ranked = galaxy[:10]
            else:
                keyword = [index.ids[r] for r, _ in top_rows(lexical, DEPTH, index.ids)]
                vector_ids = [index.ids[r] for r in near.tolist()]
                ranked = [m for m, _ in rrf([keyword, vector_ids, galaxy])[:10]]
        out.append(ndcg(ranked, grades, 10))
    return fmean(out) if out else 0.0


@dataclass
class Parts:
    """One query's cached parts of the pipeline (`ranking.fuse`'s inputs) and what scoring them needs."""

    first: np.ndarray
    shared: np.ndarray | None
    named: np.ndarray | None
    ticks: np.ndarray
    alive: np.ndarray
    grades: dict[str, int]
    commits: np.ndarray | None = None


def parts_of(st: Stream, params, moment: float | None = None) -> tuple[list[Parts], list[str]]:
    """Each query's parts under `params` (vector, expansion depth and norm, named-file depth as given; the
    weights are applied later by `fused_ndcg`), and the stream's row ids; `moment`: the index's (default its own)."""
    from reference.lexical.expansion import expand, named_files, spread
    from reference.lexical.ranking import first_stage
    out = []
    for index, text, grades, cos, near in st.replay(moment):
        first = first_stage(index, text, params, (near, cos[near]) if params.vector_weight > 0 and cos.size else None)
        mask = index.alive()
        shared = expand(index, first, params.expand_top, mask, params.expand_norm) if params.expand_top > 0 else None
        named = spread(index, named_files(index, text, params.named_top), first.size) if params.named_top > 0 else None
        out.append(Parts(first, shared, named, index.ticks().copy(), mask.copy(), grades, index.commits().copy()))
    return out, list(index.ids)


def fused_ndcg(cached: list[tuple[list[Parts], list[str]]], params) -> tuple[float, list[float]]:
    """Mean nDCG@10 over streams (and per stream) of `ranking.fuse` of the cached parts under `params`'s weights:
    exactly what `hybrid_scores` ranks."""
    from bench.metrics import ndcg
    from reference.lexical.ranking import fuse, top_rows
    from reference.lexical.recency import recency_prior
    per = []
    for queries, ids in cached:
        got = []
        for q in queries:
            prior = (recency_prior(q.first.size, params.recency_scale, q.ticks)
                     if params.recency_weight > 0 else None)
            s = np.where(q.alive, fuse(q.first, q.shared if params.expand_weight > 0 else None,
                                       q.named if params.named_weight > 0 else None, prior, params,
                                       commits=q.commits), -np.inf)
            got.append(ndcg([ids[r] for r, _ in top_rows(s, 10, ids)], q.grades, 10))
        per.append(fmean(got) if got else 0.0)
    return fmean(per), per


_PARTS: dict[tuple, list] = {}   # cached parts by what they depend on (the weights do not: `fused_ndcg`)


def _mean(streams: list[Stream], params, ranker: str = "oracle-hybrid", rerank=None,
          moment: float | None = None) -> tuple[float, dict[str, float]]:
    """Mean nDCG@10 and per stream; oracle-hybrid from cached parts (exactly `hybrid_scores`' ranking)."""
    if ranker == "oracle-hybrid":
        key = (tuple(id(st) for st in streams), params.k1, params.b, params.max_share, params.vector_weight,
               params.expand_top if params.expand_weight > 0 else 0, params.expand_norm,
               params.named_top if params.named_weight > 0 else 0, moment)
        if key not in _PARTS:
            while len(_PARTS) >= 2:        # a stage's candidates share parts in runs: keep the last two
                _PARTS.pop(next(iter(_PARTS)))
            _PARTS[key] = [parts_of(st, params, moment) for st in streams]
        mean, per = fused_ndcg(_PARTS[key], params)
        return mean, {st.name: x for st, x in zip(streams, per)}
    per = {st.name: evaluate(st, params, ranker, rerank, moment) for st in streams}
    return fmean(per.values()), per


def fit(streams: list[Stream], out=sys.stdout):
    """Stage by stage over the grids (module doc); prints every setting tried and each choice.

    Returns (the chosen `LexicalParams`, galaxybrain's (RERANK_CANDIDATES, RERANK_WEIGHT), the default ranker:
    the best of galaxybrain, oracle-hybrid and rrf on the calibration split)."""
    from reference.lexical.params import SEED
    tie = 1.0 / sum(len(st.queries) for st in streams)   # one query's share of the mean, roughly

    moment = 0.0    # every distinct write time its own moment until the moment stage

    def stage(title: str, candidates: list, base, seed_key) -> object:
        print(f"\n## {title}\n| setting | mean nDCG@10 | " + " | ".join(st.name for st in streams) + " |\n"
              + "|---" * (2 + len(streams)) + "|", file=out)
        scored = []
        for cand in candidates:
            p = base.with_(**cand)
            mean, per = _mean(streams, p, moment=moment)
            scored.append((mean, cand, p))
            print(f"| {cand} | {mean:.4f} | " + " | ".join(f"{per[st.name]:.3f}" for st in streams) + " |", file=out)
        top = max(m for m, _, _ in scored)
        near = [(m, c, p) for m, c, p in scored if top - m <= tie]
        m, c, p = min(near, key=lambda x: seed_key(x[1]))
        print(f"chosen: {c} ({m:.4f}; best {top:.4f})", file=out)
        return p

    # BM25 alone first; the stages fit the prior added (the form they were first fitted in), the joint fit
    # at the end refits the weights under each form and chooses the form
    p = SEED.with_(vector_weight=0.0, recency_form="add")
    p = stage("BM25 k1 x b", [{"k1": k, "b": b} for k in K1_GRID for b in B_GRID], p,
              lambda c: (abs(c["k1"] - SEED.k1) + abs(c["b"] - SEED.b)))
    p = stage("vector weight (hashing-v1 cosine, top 100)", [{"vector_weight": v} for v in VECTOR_GRID], p,
              lambda c: abs(c["vector_weight"] - SEED.vector_weight))
    p = stage("expansion through shared entities: depth x weight x share per file",
              [{"expand_top": t, "expand_weight": w if t else 0.0, "expand_norm": n if t else 0.0}
               for t in EXPAND_TOP_GRID for n in (EXPAND_NORM_GRID if t else (0.0,))
               for w in (EXPAND_WEIGHT_GRID if t else (0.0,))], p,
              lambda c: (c["expand_top"] > 0, c["expand_weight"], c["expand_norm"], c["expand_top"]))
    print("\n## files the query names: depth x weight (expansion through them)\n| setting | mean nDCG@10 | "
          + " | ".join(st.name for st in streams) + " |\n" + "|---" * (2 + len(streams)) + "|", file=out)
    scored = []
    for t in NAMED_TOP_GRID:
        cached = [parts_of(st, p.with_(named_top=t), moment) for st in streams]
        for w in (NAMED_WEIGHT_GRID if t else (0.0,)):
            c = {"named_top": t, "named_weight": w}
            mean, per = fused_ndcg(cached, p.with_(**c))
            scored.append((mean, c))
            print(f"| {c} | {mean:.4f} | " + " | ".join(f"{x:.3f}" for x in per) + " |", file=out)
    top = max(m for m, _ in scored)
    m, c = min(((m, c) for m, c in scored if top - m <= tie), key=lambda mc: (mc[1]["named_top"] > 0,
                                                                              mc[1]["named_weight"], mc[1]["named_top"]))
    print(f"chosen: {c} ({m:.4f}; best {top:.4f}; ties go to no such part, then the smallest)", file=out)
    p = p.with_(**c)
    p = stage("recency prior: weight x scale (memories ago)",
              [{"recency_weight": w, "recency_scale": s} for w in RECENCY_WEIGHT_GRID
               for s in (RECENCY_SCALE_GRID if w else (SEED.recency_scale,))], p,
              lambda c: (c["recency_weight"], abs(c["recency_scale"] - SEED.recency_scale)))
    print("\n## write moment: writes less than this many seconds after a moment's first are one tick of the "
          "prior's clock\n| seconds | mean nDCG@10 | " + " | ".join(st.name for st in streams) + " |\n"
          + "|---" * (2 + len(streams)) + "|", file=out)
    by_moment = {}
    for g in MOMENT_GRID:
        by_moment[g] = _mean(streams, p, moment=g)
        print(f"| {g:g} | {by_moment[g][0]:.4f} | " + " | ".join(f"{by_moment[g][1][st.name]:.3f}" for st in streams)
              + " |", file=out)
    top = max(m for m, _ in by_moment.values())
    moment = max(g for g, (m, _) in by_moment.items() if top - m <= tie)
    print(f"chosen: MOMENT {moment:g} ({by_moment[moment][0]:.4f}; best {top:.4f}; ties go to the longest moment, "
          "nearest seed 001's decay, which counts time, not writes)", file=out)
    # corpus stop words keep search at 100k memories inside 5 ms (terms in most rows have the longest
    # postings and the smallest idf); ties go to leaving them out (0.5), the reason for having the option
    p = stage("corpus stop words: max share of memories a query term may be in", [{"max_share": m} for m in MAX_SHARE_GRID],
              p, lambda c: c["max_share"])
    p = fit_fusion(streams, p, tie, out, moment)
    print(f"\nchosen (reference/lexical/params.py TUNED): {p}; MOMENT {moment:g}", file=out)
    print("\n## galaxybrain's semantic re-rank: candidates x cosine weight\n| setting | mean nDCG@10 |\n|---|---|", file=out)
    reranks = {}
    for c in RERANK_CANDIDATES_GRID:
        for w in RERANK_WEIGHT_GRID:
            reranks[(c, w)] = _mean(streams, p, "galaxybrain", (c, w), moment)[0]
            print(f"| {c} candidates, weight {w} | {reranks[(c, w)]:.4f} |", file=out)
    top = max(reranks.values())
    rerank = min((k for k, v in reranks.items() if top - v <= tie), key=lambda k: (-k[1], k[0]))
    print(f"chosen: RERANK_CANDIDATES {rerank[0]}, RERANK_WEIGHT {rerank[1]} ({reranks[rerank]:.4f}; best {top:.4f};"
          " ties go to the most semantic weight: the seed re-ranks by cosine alone)", file=out)
    print("\n## the rankers on the calibration split, tuned\n| ranker | mean nDCG@10 | "
          + " | ".join(st.name for st in streams) + " |\n" + "|---" * (2 + len(streams)) + "|", file=out)
    means = {}
    for r in ("galaxybrain", "oracle-hybrid", "rrf"):
        means[r], per = _mean(streams, p, r, rerank, moment)
        print(f"| {r} | {means[r]:.4f} | " + " | ".join(f"{per[st.name]:.3f}" for st in streams) + " |", file=out)
    best = max(means, key=lambda r: (means[r], r == "galaxybrain"))
    print(f"\ndefault ranker (reference/rankers/registry.py DEFAULT_RANKER): {best} "
          "(memory-lane is fitted by its own stage)", file=out)
    return p, rerank, best, moment


def fit_fusion(streams: list[Stream], p, tie: float, out=sys.stdout, moment: float | None = None):
    """The fusion weights jointly (expansion, named files, recency weight x scale) over cached parts, the
    depths and the first stage as the stages chose, under each form of the prior (`ranking.with_prior`); the
    best ten of each printed; within a form ties keep the staged weights; between the forms a gain under one
    query's share is a tie and ties go to the seed's form (seed 001 multiplies: `RECENCY_FORMS[0]`)."""
    from reference.lexical.params import RECENCY_FORMS
    cached = [parts_of(st, p.with_(named_top=p.named_top or NAMED_TOP_GRID[1]), moment) for st in streams]
    keys = ("expand_weight", "named_weight", "recency_weight", "recency_scale")
    staged = tuple(getattr(p, k) for k in keys)
    by_form = {}
    for form in RECENCY_FORMS:
        scored = {}
        for e in FUSION_EXPAND_GRID:
            for n in FUSION_NAMED_GRID:
                for r in FUSION_RECENCY_GRID:
                    for sc in (FUSION_SCALE_GRID if r else (FUSION_SCALE_GRID[0],)):
                        c = dict(zip(keys, (e, n, r, sc)))
                        scored[tuple(c.values())] = fused_ndcg(cached, p.with_(**c, recency_form=form))
        scored.setdefault(staged, fused_ndcg(cached, p.with_(recency_form=form)))
        print(f"\n## fusion weights jointly, prior {form}: expansion x named files x recency weight x scale "
              "(best 10)\n| setting | mean nDCG@10 | " + " | ".join(st.name for st in streams) + " |\n"
              + "|---" * (2 + len(streams)) + "|", file=out)
        ranked = sorted(scored, key=lambda k: -scored[k][0])
        for k in ranked[:10] + ([staged] if staged not in ranked[:10] else []):
            mean, per = scored[k]
            print(f"| {dict(zip(keys, k))} | {mean:.4f} | " + " | ".join(f"{x:.3f}" for x in per) + " |", file=out)
        best = scored[ranked[0]][0]
        chosen = staged if best - scored[staged][0] <= tie else ranked[0]
        by_form[form] = (scored[chosen][0], chosen)
        print(f"best with the prior {form}: {dict(zip(keys, chosen))} ({scored[chosen][0]:.4f}; best {best:.4f}; "
              "ties keep the staged choice)", file=out)
    seed_form = RECENCY_FORMS[0]
    top = max(m for m, _ in by_form.values())
    form = seed_form if top - by_form[seed_form][0] <= tie else max(by_form, key=lambda f: by_form[f][0])
    c = dict(zip(keys, by_form[form][1]), recency_form=form)
    if c["named_weight"] == 0.0:
        c["named_top"] = 0
    elif not p.named_top:
        c["named_top"] = NAMED_TOP_GRID[1]
    print("\n## recency form: how the prior joins the score\n" + "\n".join(
        f"- {f}: {m:.4f}" for f, (m, _) in by_form.items())
        + f"\nchosen: {c} ({by_form[form][0]:.4f}; a gain under one query's share ({tie:.4f}) is a tie; ties go to "
        f"the seed's form, {seed_form})", file=out)
    return p.with_(**c)


def streams_from(folder: Path) -> list[Stream]:
    return [load_stream(folder / f"{d}-{t}-calibration.jsonl") for d in DATASETS for t in TASKS]


def run(folder: Path) -> None:
    """Every fit of this module on the calibration scenarios in `folder`."""
    params, _, _, moment = fit(streams_from(folder))
    files.fit_files(files.streams_from(folder), params, moment=moment)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m bench.calibration.lexical", description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, help="a folder holding the calibration scenarios (else built)")
    ap.add_argument("--files-only", action="store_true", help="only the files fit, with the committed TUNED")
    args = ap.parse_args(argv)
    with scenarios.folder(args.data) as folder:
        if args.files_only:
            files.fit_committed(folder)
        else:
            run(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
