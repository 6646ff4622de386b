"""CachedEmbedder (opt-in row cache): the same rows as the embedder it wraps, from memory or from its file."""
from __future__ import annotations

import json

import numpy as np
import pytest

from reference.embed import HashingEmbedder
from reference.embed import env as embed_env
from reference.embed.cache import CachedEmbedder


class Counting:
    """hashing-v1, counting the texts it is asked to embed."""

    def __init__(self, fingerprint: str | None = None) -> None:
        self.inner, self.texts = HashingEmbedder(), []
        self.name, self.dim = self.inner.name, self.inner.dim
        if fingerprint:
            self.fingerprint = fingerprint

    def embed(self, texts):
        self.texts += list(texts)
        return self.inner.embed(texts)


TEXTS = ["refresh the auth token", "fix the blob writer race", "refresh the auth token", "  ", "café 東京"]


def test_rows_are_the_wrapped_embedders_and_repeats_are_not_embedded_again(tmp_path):
    inner = Counting()
    cached = CachedEmbedder(inner, tmp_path)
    first = cached.embed(TEXTS)
    assert np.array_equal(first, HashingEmbedder().embed(TEXTS))
    assert inner.texts == ["refresh the auth token", "fix the blob writer race", "  ", "café 東京"]
    again = cached.embed(list(reversed(TEXTS)))
    assert np.array_equal(again, first[::-1]) and len(inner.texts) == 4
    assert (cached.hits, cached.misses) == (6, 4)
    assert cached.name == inner.name and cached.dim == inner.dim
    assert cached.embed([]).shape == (0, inner.dim)
    with pytest.raises(TypeError):
        cached.embed("one string")


def test_a_new_process_reads_the_rows_from_the_file_and_skips_a_cut_line(tmp_path):
    CachedEmbedder(Counting(), tmp_path).embed(TEXTS)
    [path] = tmp_path.glob("*.jsonl")
    with path.open("a") as f:
        f.write('{"text_sha256": "abc", "row": "AAA')   # a run killed mid-line
    inner = Counting()
    rows = CachedEmbedder(inner, tmp_path).embed(TEXTS)
    assert inner.texts == [] and np.array_equal(rows, HashingEmbedder().embed(TEXTS))
    head = json.loads(path.read_text().splitlines()[0])
    assert head == {"embedder": f"{inner.name} {inner.dim}", "dim": inner.dim}


def test_another_fingerprint_gets_another_file_and_never_the_rows_of_the_first(tmp_path):
    a = CachedEmbedder(Counting("model A"), tmp_path)
    a.embed(TEXTS)
    other = Counting("model B")
    b = CachedEmbedder(other, tmp_path)
    b.embed(TEXTS)
    assert len(other.texts) == 4 and a.path != b.path and len(list(tmp_path.glob("*.jsonl"))) == 2
    b.path.write_text(a.path.read_text())   # a file whose head names another model
    with pytest.raises(ValueError, match="not of 'model B'"):
        CachedEmbedder(Counting("model B"), tmp_path)


def test_env_embedder_uses_the_cache_only_when_asked(tmp_path, monkeypatch):
    monkeypatch.setenv("CODEMEM_EMBEDDER", "hashing-v1")
    monkeypatch.delenv("CODEMEM_EMBED_CACHE", raising=False)
    assert not isinstance(embed_env.env_embedder(), CachedEmbedder)
    monkeypatch.setenv("CODEMEM_EMBED_CACHE", str(tmp_path))
    assert isinstance(embed_env.env_embedder(), CachedEmbedder)
    assert not isinstance(embed_env.env_embedder(cache=False), CachedEmbedder)
    monkeypatch.delenv("CODEMEM_EMBEDDER")
    assert embed_env.env_embedder() is None
