"""The WordLlama embedder loads from the installed wheel only, or says how to install it."""
from __future__ import annotations

import builtins

import numpy as np
import pytest

from reference.embed.protocol import EmbedderUnavailable
from reference.embed.registry import get_embedder


def test_missing_extra_names_the_install_command(monkeypatch):
    real_import = builtins.__import__

    def no_wordllama(name, *a, **k):
        if name == "wordllama" or name.startswith("wordllama."):
            raise ImportError("No module named 'wordllama'")
        return real_import(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_wordllama)
    with pytest.raises(EmbedderUnavailable, match=r"pip install 'codemem-bench\[wordllama\]'"):
        get_embedder("wordllama")


def test_embeds_offline_from_the_wheel(monkeypatch):
    pytest.importorskip("wordllama")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    # any network use would go through these; make them fail loudly
    import socket
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: pytest.fail("network used"))
    emb = get_embedder("wordllama")
    v = emb.embed(["refresh the auth token", "renew the login token", "billing invoice rounding", ""])
    assert v.shape == (4, 256) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v[:3], axis=1), 1.0, atol=1e-5) and not v[3].any()
    assert v[0] @ v[1] > v[0] @ v[2]  # a real model: related phrasing is nearer than an unrelated one


def test_input_guard_is_the_shared_one():
    """A single string is refused and an empty list gives (0, dim), as for every embedder."""
    pytest.importorskip("wordllama")
    emb = get_embedder("wordllama")
    with pytest.raises(TypeError, match="not a single string"):
        emb.embed("refresh the auth token")
    empty = emb.embed([])
    assert empty.shape == (0, 256) and empty.dtype == np.float32
    assert emb.embed(("a tuple", "of texts")).shape == (2, 256)
