"""bench.calibration.transfer: each dataset is scored with the constants fitted without it."""
from __future__ import annotations

import io
from pathlib import Path

from bench.calibration import files, lane, lexical, transfer
from bench.calibration.scenarios import DATASETS
from reference.embed import HashingEmbedder
from reference.lexical.params import SEED, TUNED, FileParams

TEXTS = [f"change {i} in src/mod{i % 3}.py token {'refresh' if i % 2 else 'cache'}" for i in range(12)]
QUERIES = [(6, "token refresh src/mod1.py", {"m1": 2, "m3": 1}), (12, "cache", {"m10": 1})]


def _stream(name: str) -> lexical.Stream:
    emb = HashingEmbedder()
    st = lexical.Stream(name, texts=list(TEXTS), ids=[f"m{i}" for i in range(len(TEXTS))], queries=list(QUERIES))
    st.vectors, st.qvectors = emb.embed(st.texts), emb.embed([q for _, q, _ in st.queries])
    return st


def _file_stream(name: str) -> files.FileStream:
    st = files.FileStream(name)
    for i, text in enumerate(TEXTS):
        st.events.append(("commit", f"c{i}", text, [f"src/mod{i % 3}.py"], 1000.0 * i))
        if i == 7:
            st.events.append(("query", "token refresh", {"file:src/mod1.py": 1}))
    st.events.append(("query", "cache mod0", {"file:src/mod0.py": 1}))
    emb = HashingEmbedder()
    st.vectors = emb.embed([e[2] for e in st.events if e[0] == "commit"])
    st.qvectors = emb.embed([e[1] for e in st.events if e[0] == "query"])
    return st


def test_a_fold_is_fitted_on_every_stream_but_the_held_datasets(monkeypatch):
    streams = {(d, t): _stream(f"{d}-{t}-calibration") for d in DATASETS for t in lexical.TASKS}
    file_streams = {d: _file_stream(f"{d}-files-calibration") for d in DATASETS}
    seen, seen_files = [], []
    monkeypatch.setattr(lexical, "fit", lambda train, out: (seen.append([st.name for st in train]),
                                                            (SEED, (20, 0.1), "rrf", 60.0))[1])
    monkeypatch.setattr(files, "fit_files", lambda train, params, out, moment: (
        seen_files.append(([st.name for st in train], params, moment)), FileParams(top=10))[1])
    fold = transfer.fit_without("sqlite-utils", streams, file_streams)
    assert seen == [[f"{d}-{t}-calibration" for d in ("httpx", "attrs") for t in lexical.TASKS]]
    assert seen_files == [(["httpx-files-calibration", "attrs-files-calibration"], SEED, 60.0)]
    assert fold == transfer.Fold(SEED, (20, 0.1), "rrf", 60.0, FileParams(top=10))


def test_each_held_out_row_is_scored_with_its_own_folds_default(monkeypatch, tmp_path: Path):
    """The fold fitted without a dataset picks the ranker that dataset's row is scored with (here a different
    one per fold, so a row scored with another fold's choice, or with the committed one, shows)."""
    chosen = {"sqlite-utils": "rrf", "httpx": "galaxybrain", "attrs": "oracle-hybrid"}
    # the files fit's choice, one per fold; a heavy file recency ranks the last commit's file first, which the
    # tiny stream's last query does not want, so a row scored with the httpx fold's choice scores lower
    chosen_files = {"sqlite-utils": FileParams(recency_weight=0.0),
                    "httpx": FileParams(recency_weight=100.0, recency_scale=1.0),
                    "attrs": FileParams(top=1, recency_weight=0.0)}

    def fake_fit(train, out):
        held = next(d for d in DATASETS if not any(st.name.startswith(d + "-") for st in train))
        return TUNED, (20, 0.1), chosen[held], 0.0

    def fake_fit_files(train, params, out, moment):
        held = next(d for d in DATASETS if not any(st.name.startswith(d + "-") for st in train))
        return chosen_files[held]

    monkeypatch.setattr(lexical, "fit", fake_fit)
    monkeypatch.setattr(files, "fit_files", fake_fit_files)
    monkeypatch.setattr(lexical, "load_stream", lambda path: _stream(path.stem))
    monkeypatch.setattr(files, "load_file_stream", lambda path: _file_stream(path.stem))
    monkeypatch.setattr(transfer, "baselines", lambda path: {"bm25": 0.25, "recency": 0.125})
    monkeypatch.setattr(transfer, "lane_transfer", lambda folder, out: {"memory lane": "its own test"})
    monkeypatch.setattr(transfer, "branch_transfer", lambda folder, out: {"branches": "their own test"})
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
    assert len(result["file_rows"]) == 3 and "| mean of the 3 |" in table
    assert result["lane_rows"] == {"memory lane": "its own test"}
    assert result["branch_rows"] == {"branches": "their own test"}
    for held in DATASETS:
        name = f"{held}-files-calibration"
        assert result["folds"][held].files == chosen_files[held]
        assert result["file_rows"][name]["left out"] == files.evaluate_files(
            _file_stream(name), TUNED, chosen_files[held], 0.0)
    assert result["file_rows"]["httpx-files-calibration"]["left out"] < result["file_rows"][
        "sqlite-utils-files-calibration"]["left out"]


def test_memory_lane_is_chosen_without_the_held_dataset_and_scored_on_it(monkeypatch, tmp_path: Path):
    """A setting that is best on two datasets and worst on the third is what the fold without the third
    chooses, and the third's rows carry its (bad) figure: the held dataset's scores never take part."""
    committed, good_elsewhere = lane.committed_setting(), (0.0, 0.0, 4.0, 0.0, 10.0)
    keys = [(d, t) for d in DATASETS for t in lane.TASKS]
    per = {committed: {k: 0.5 for k in keys},
           good_elsewhere: {k: (0.1 if k[0] == "attrs" else 0.9) for k in keys}}
    monkeypatch.setattr(lane, "record", lambda d, t: [{}, {}])      # two judged queries a scenario
    monkeypatch.setattr(lane, "grid_scores", lambda rows: per)
    monkeypatch.setattr(transfer, "baselines", lambda path: {"bm25": 0.25, "recency": 0.125})
    out = io.StringIO()
    rows = transfer.lane_transfer(tmp_path, out)
    assert len(rows) == 9
    for (d, t) in keys:
        row = rows[f"{d}-{t}-calibration"]
        assert row["joint"] == 0.5
        # without attrs the other setting wins (0.9 against 0.5); without sqlite-utils or httpx the two tie
        # (0.5 each) and the committed one is kept
        assert row["left out"] == (0.1 if d == "attrs" else 0.5)
    assert f"- Memory Lane without attrs: (semantic, expand_norm, expansion, recency, half-life) {good_elsewhere}" \
        in out.getvalue()


def test_the_branch_ranking_is_chosen_without_the_held_dataset_and_scored_on_it(monkeypatch, tmp_path: Path):
    """As Memory Lane's: the fold without httpx takes the setting best on the other two, bad on httpx."""
    committed, good_elsewhere = lane.committed_project_setting(), (8.0, 0.0, 0.0, 10.0)
    per = {committed: {(d, "branches"): 0.5 for d in DATASETS},
           good_elsewhere: {(d, "branches"): (0.2 if d == "httpx" else 0.8) for d in DATASETS}}
    monkeypatch.setattr(lane, "record_project", lambda d: [object(), object()])
    monkeypatch.setattr(lane, "project_grid_scores", lambda rows: per)
    monkeypatch.setattr(transfer, "baselines", lambda path: {"bm25": 0.25, "recency": 0.5})
    out = io.StringIO()
    rows = transfer.branch_transfer(tmp_path, out)
    assert {name: row["left out"] for name, row in rows.items()} == {
        "sqlite-utils-branches-calibration": 0.5, "httpx-branches-calibration": 0.2, "attrs-branches-calibration": 0.5}
    assert all(row["joint"] == 0.5 for row in rows.values())
    assert "| httpx-branches-calibration | 0.200 | 0.500 | 0.250 | 0.500 | -0.050 |" in out.getvalue()
