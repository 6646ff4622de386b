"""bench.calibration.transfer: each dataset is scored with the constants fitted without it."""
from __future__ import annotations

import io
from pathlib import Path

from bench.calibration import lexical, transfer
from bench.calibration.scenarios import DATASETS
from reference.embed import HashingEmbedder
from reference.lexical.params import SEED, TUNED

TEXTS = [f"change {i} in src/mod{i % 3}.py token {'refresh' if i % 2 else 'cache'}" for i in range(12)]
QUERIES = [(6, "token refresh src/mod1.py", {"m1": 2, "m3": 1}), (12, "cache", {"m10": 1})]


def _stream(name: str) -> lexical.Stream:
    emb = HashingEmbedder()
    st = lexical.Stream(name, texts=list(TEXTS), ids=[f"m{i}" for i in range(len(TEXTS))], queries=list(QUERIES))
    st.vectors, st.qvectors = emb.embed(st.texts), emb.embed([q for _, q, _ in st.queries])
    return st


def test_a_fold_is_fitted_on_every_stream_but_the_held_datasets(monkeypatch):
    streams = {f"{d}-{t}-calibration": _stream(f"{d}-{t}-calibration") for d in DATASETS for t in lexical.TASKS}
    seen = []
    monkeypatch.setattr(lexical, "fit", lambda train, out: (seen.append([st.name for st in train]),
                                                            (SEED, (20, 0.1), "rrf", 60.0))[1])
    fold = transfer.fit_without("sqlite-utils", streams)
    assert seen == [[f"{d}-{t}-calibration" for d in ("httpx", "attrs") for t in lexical.TASKS]]
    assert fold == transfer.Fold(SEED, (20, 0.1), "rrf", 60.0)


def test_each_held_out_row_is_scored_with_its_own_folds_default(monkeypatch, tmp_path: Path):
    """The fold fitted without a dataset picks the ranker that dataset's row is scored with (here a different
    one per fold, so a row scored with another fold's choice, or with the committed one, shows)."""
    chosen = {"sqlite-utils": "rrf", "httpx": "galaxybrain", "attrs": "oracle-hybrid"}

    def fake_fit(train, out):
        held = next(d for d in DATASETS if not any(st.name.startswith(d + "-") for st in train))
        return TUNED, (20, 0.1), chosen[held], 0.0

    monkeypatch.setattr(lexical, "fit", fake_fit)
    monkeypatch.setattr(lexical, "load_stream", lambda path: _stream(path.stem))
    monkeypatch.setattr(transfer, "baselines", lambda path: {"bm25": 0.25, "recency": 0.125})
    out = io.StringIO()
    result = transfer.run(tmp_path, out)
    table = out.getvalue()
    assert len(result["rows"]) == 6
    for name, row in result["rows"].items():
        held = name.removesuffix("-blame-calibration").removesuffix("-history-calibration")
        assert row["default"] == chosen[held]
        assert row["left out"] == transfer.score(_stream(name), result["folds"][held])
        mine = row["left out"][chosen[held]]
        assert f"| {name} | {mine:.3f} ({chosen[held]}) |" in table and f"| {mine - 0.25:+.3f} |" in table
    assert table.count("- without ") == 3 and "| mean of the six |" in table
