"""`ranker_pieces` still wraps every piece it names and prints what its options promise (a renamed function would
silently drop out of its table)."""
from __future__ import annotations

import importlib
import re

import pytest

from bench.benchmarks import ranker_pieces


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    path = tmp_path_factory.mktemp("pieces") / "store"
    ranker_pieces.build(path, 400)
    return path


def test_every_named_piece_exists():
    for module, qualname in ranker_pieces.PIECES:
        owner = importlib.import_module(module)
        for part in qualname.split("."):
            owner = getattr(owner, part)   # AttributeError names the piece that moved
        assert callable(owner)


def test_rounds_and_per_query_medians_are_printed(store, capsys):
    ranker_pieces.main([str(store), "--rankers", "rrf", "--rounds", "2", "--per-query"])
    out = capsys.readouterr().out
    rounds = re.search(r"p50 of each round: (.*)", out).group(1).split()
    medians = re.search(r"each query's median: (.*)", out).group(1).split()
    assert len(rounds) == 2 and len(medians) == 30
    assert [float(m) for m in medians] == sorted(float(m) for m in medians)
    assert out.count("slowest: ") == 3
    assert re.search(r"\d+\.\d{3} ms  LexicalLayer\.vector", out)    # a piece rrf reaches was timed


def test_rounds_below_one_are_refused(tmp_path, capsys):
    with pytest.raises(SystemExit):     # refused before the store is read: any folder will do
        ranker_pieces.main([str(tmp_path), "--rounds", "0"])
    assert "--rounds must be at least 1" in capsys.readouterr().err
