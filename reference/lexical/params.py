"""The lexical ranking's constants: the values fitted on the calibration split, and the seeds' own.

`TUNED` is what the reference uses; `bench/calibration/lexical.py` (`python3 -m
bench.calibration`) fits it on the calibration split of all three history
datasets jointly (commits at positions divisible by 10, never scored) over a
small fixed grid and prints what it chose; the values below are those it
printed. `SEED` is what the seeds give: FTS5's bm25 (k1 1.2, b 0.75), no
expansion, no recency prior (seed 001 decays by multiplying, `knowledge/hybrid.py`, the form
`recency_form` defaults to), seed 001's
0.6 vector / 0.4 keyword as a vector weight of 1.5,
so reports can show the seed-default figure beside the tuned one.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

# How the recency prior joins the rest of the score (`ranking.with_prior`): "multiply" is seed 001's decay,
# score x (1 + recency_weight x prior); "add" is score + recency_weight x prior where the score is positive.
RECENCY_FORMS = ("multiply", "add")
# What the prior scales for a note (a memory that does not record the files it changed; a commit's prior always
# joins the whole score in `recency_form`): "sum", the whole fused score as for commits (seed 001's decay of the
# final score), or "first", the first stage alone, the expansion and named-file parts added undecayed, in either
# form (`ranking.fuse`).
NOTE_PRIORS = ("sum", "first")


@dataclass(frozen=True)
class LexicalParams:
    """One setting of the lexical ranking (`ranking.py` says what each part does)."""

    k1: float = 1.2                # BM25 term-frequency saturation
    b: float = 0.75                # BM25 length normalisation
    max_share: float = 1.0         # query terms in more than this share of the memories are left out (1: none)
    vector_weight: float = 1.5     # weight of the normalised cosine in the first stage (seed 001: 0.6 / 0.4)
    expand_top: int = 0            # first-stage rows whose entities are followed (0: no expansion)
    expand_weight: float = 0.0     # weight of the normalised expansion score
    expand_norm: float = 0.0       # a hit's score is shared among its files: / (file count ** expand_norm)
    named_top: int = 0             # files whose paths the query names that are followed (0: none)
    named_weight: float = 0.0      # weight of the normalised expansion through those files
    recency_weight: float = 0.0    # weight of the recency prior
    recency_scale: float = 50.0    # memories ago at which the prior has fallen to 1/e
    recency_form: str = "multiply"  # how the prior joins the score (ranking.with_prior): seed 001's x (1 + w x prior)
    note_prior: str = "sum"        # what the prior scales for a note (NOTE_PRIORS)

    def __post_init__(self) -> None:
        if self.recency_form not in RECENCY_FORMS:
            raise ValueError(f"LexicalParams.recency_form must be one of {', '.join(RECENCY_FORMS)}, "
                             f"got {self.recency_form!r}")
        if self.note_prior not in NOTE_PRIORS:
            raise ValueError(f"LexicalParams.note_prior must be one of {', '.join(NOTE_PRIORS)}, got {self.note_prior!r}")

    def with_(self, **changes) -> "LexicalParams":
        return replace(self, **changes)


# Writes less than MOMENT seconds after the first write of the current moment belong to it: one tick of the
# index's write-time clock (index.py), over which the recency prior counts ages (recency.py). Fitted by
# bench/calibration/lexical.py ("write moment"); 0 makes every distinct write time a moment of its own.
MOMENT = 600.0

SEED = LexicalParams()
# fitted by `python3 -m bench.calibration` (bench/calibration/lexical.py) on the history calibration split
TUNED = LexicalParams(k1=3.0, b=0.1, max_share=1.0, vector_weight=0.1, expand_top=8, expand_weight=2.0,
                      expand_norm=0.5, named_top=10, named_weight=1.0, recency_weight=0.7, recency_scale=20.0,
                      recency_form="multiply", note_prior="first")   # note_prior: bench/calibration/notes.py


def params_for(store) -> LexicalParams:
    """`SEED` for a store run at the seeds' values (`reference.tuning.SEED_DEFAULTS` set on it), else `TUNED`."""
    from reference.tuning import SEED_DEFAULTS, tuning_of
    return SEED if tuning_of(store) == SEED_DEFAULTS else TUNED


# galaxybrain's semantic re-rank (seed 000 §4.3: filter, then re-rank by meaning) of the lexical pipeline's
# best candidates: how many, and the weight of the normalised cosine beside the normalised lexical score.
# Fitted with TUNED by bench/calibration/lexical.py; the seed re-ranks every filtered memory by cosine alone.
RERANK_CANDIDATES = 20
RERANK_WEIGHT = 0.1


@dataclass(frozen=True)
class FileParams:
    """File localisation (`files.py`): history depth, share and power, path BM25 weight and its k1 / b, file
    recency, the file documents' weight, and the cosine weight of the memory scores the history reads."""

    top: int = 50
    path_weight: float = 0.5
    recency_weight: float = 0.3
    recency_scale: float = 50.0
    k1: float = 1.2
    b: float = 0.75
    history_norm: float = 0.5      # a memory's score is shared among its files: / (file count ** history_norm)
    history_power: float = 1.0     # each memory passes its score ** history_power
    text_weight: float = 0.0       # BM25 of the query over each file's document (the words of its memories)
    vector_weight: float = 0.0     # the memory scores' cosine part (LexicalParams.vector_weight) for this task

    def with_(self, **changes) -> "FileParams":
        return replace(self, **changes)


# fitted by bench/calibration/files.py on the files task's calibration split (with TUNED for the memories)
FILES_TUNED = FileParams(top=50, path_weight=0.25, recency_weight=0.3, recency_scale=50.0, history_norm=1.0,
                         history_power=2.0, text_weight=0.25, vector_weight=0.5)
