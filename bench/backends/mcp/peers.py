"""Where peers live and how they are installed: npm or pip into a folder the harness owns.

A peer is an MCP memory server that does not ship with codemem-bench. `codemem-bench peers install NAME`
installs it into `<peers>/<NAME>/` (npm with `--prefix`, or a venv of its own for a pip package that needs
another Python), where `<peers>` is `$CODEMEM_BENCH_PEERS` or `~/.cache/codemem-bench/peers`. Installing is
a set-up step; a run never installs anything.
"""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

from bench.backends.mcp.adapter import Adapter


class PeerNotInstalled(ImportError):
    """The adapter's server is not installed; the message gives the command that installs it."""


def peers_root() -> Path:
    return Path(os.environ.get("CODEMEM_BENCH_PEERS") or Path.home() / ".cache" / "codemem-bench" / "peers")


def peer_dir(adapter: Adapter) -> Path:
    return peers_root() / adapter.name


def is_installed(adapter: Adapter) -> bool:
    return adapter.install is None or (peer_dir(adapter) / adapter.install.check).exists()


def require_installed(adapter: Adapter) -> None:
    if not is_installed(adapter):
        raise PeerNotInstalled(f"MCP server {adapter.name!r} is not installed; run "
                               f"`codemem-bench peers install {adapter.name}` (installs into {peer_dir(adapter)})")


def find_python(version: str) -> str:
    """An interpreter `pythonX.Y` on PATH or under pyenv; a clear error when there is none."""
    exe = shutil.which(f"python{version}")
    candidates = ([exe] if exe else []) + sorted(glob.glob(os.path.expanduser(
        f"~/.pyenv/versions/{version}*/bin/python{version}")))
    for c in candidates:
        if subprocess.run([c, "--version"], capture_output=True).returncode == 0:
            return c
    raise RuntimeError(f"Python {version} is needed for this peer and was not found (python{version} on PATH "
                       f"or under ~/.pyenv/versions)")


def install_commands(adapter: Adapter) -> list[list[str]]:
    """The commands that install the peer (empty when it ships with codemem-bench)."""
    if adapter.install is None:
        return []
    where = peer_dir(adapter)
    if adapter.install.npm:
        return [["npm", "install", "--no-audit", "--no-fund", "--prefix", str(where), adapter.install.npm]]
    python = find_python(adapter.install.python) if adapter.install.python else sys.executable
    venv = where / "venv"
    return [[python, "-m", "venv", str(venv)],
            [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             adapter.install.pip or ""]]


def install(adapter: Adapter, echo=print) -> None:
    """Run the install commands; an error names the command that failed."""
    peer_dir(adapter).mkdir(parents=True, exist_ok=True)
    for cmd in install_commands(adapter):
        echo("$ " + " ".join(cmd))
        done = subprocess.run(cmd)
        if done.returncode != 0:
            raise RuntimeError(f"installing {adapter.name}: `{' '.join(cmd)}` exited {done.returncode}")
    if not is_installed(adapter):
        raise RuntimeError(f"installing {adapter.name}: {adapter.install.check} is still missing under "
                           f"{peer_dir(adapter)}")
