"""Where peers live and how they are installed: npm or pip into a folder the harness owns.

A peer is an MCP memory server that does not ship with codemem-bench. `codemem-bench peers install NAME`
installs it into `<peers>/<NAME>/` (npm with `--prefix`, or a venv of its own for a pip package that needs
another Python), where `<peers>` is `$CODEMEM_BENCH_PEERS` or `~/.cache/codemem-bench/peers`. Installing is
a set-up step; a run never installs anything.

An adapter may also name models of `codemem-bench models` its server reads (`[install] models`): they count
as part of the install (`peers install` installs them first; a missing one is "not installed"), and the
server reaches them through `[server] links` (`make_links`). `[install] sqlite_extensions = true` picks an
interpreter whose `sqlite3` can load extensions (pyenv's builds here cannot; Debian's `/usr/bin/python3` can).
"""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

from bench.backends.mcp.adapter import Adapter
from bench.backends.mcp.template import fill


class PeerNotInstalled(ImportError):
    """The adapter's server is not installed; the message gives the command that installs it."""


def peers_root() -> Path:
    return Path(os.environ.get("CODEMEM_BENCH_PEERS") or Path.home() / ".cache" / "codemem-bench" / "peers")


def peer_dir(adapter: Adapter) -> Path:
    return peers_root() / adapter.name


def _models_missing(adapter: Adapter) -> list[str]:
    from reference.embed.minilm_files import check_model_dir
    from reference.embed.protocol import EmbedderUnavailable
    missing = []
    for model in adapter.install.models if adapter.install else ():
        try:
            check_model_dir()   # "minilm", the only model so far
        except EmbedderUnavailable:
            missing.append(model)
    return missing


def is_installed(adapter: Adapter) -> bool:
    return adapter.install is None or (
        (peer_dir(adapter) / adapter.install.check).exists() and not _models_missing(adapter))


def require_installed(adapter: Adapter) -> None:
    if not is_installed(adapter):
        models = _models_missing(adapter)
        also = f" and the model {', '.join(models)} (codemem-bench models install {models[0]})" if models else ""
        raise PeerNotInstalled(f"MCP server {adapter.name!r} is not installed{also}; run "
                               f"`codemem-bench peers install {adapter.name}` (installs into {peer_dir(adapter)})")


SQLITE_EXTENSIONS_CHECK = "import sqlite3; sqlite3.connect(':memory:').enable_load_extension(True)"


def find_python(version: str, sqlite_extensions: bool = False) -> str:
    """An interpreter `pythonX.Y` on PATH, under pyenv or Debian's `/usr/bin`; with `sqlite_extensions`,
    only one whose sqlite3 can load extensions. A clear error when there is none."""
    exe = shutil.which(f"python{version}")
    candidates = ([exe] if exe else []) + sorted(glob.glob(os.path.expanduser(
        f"~/.pyenv/versions/{version}*/bin/python{version}"))) + [f"/usr/bin/python{version}"]
    probe = ["-c", SQLITE_EXTENSIONS_CHECK] if sqlite_extensions else ["--version"]
    for c in candidates:
        if os.path.exists(c) and subprocess.run([c, *probe], capture_output=True).returncode == 0:
            return c
    need = " whose sqlite3 can load extensions" if sqlite_extensions else ""
    raise RuntimeError(f"Python {version}{need} is needed for this peer and was not found (python{version} on PATH, "
                       f"under ~/.pyenv/versions, or /usr/bin/python{version}: on Debian `apt-get install "
                       f"python3 python3-venv`)")


def make_links(links: dict[str, str], values: dict[str, str]) -> None:
    """Create the adapter's `[server] links` (link -> target, placeholders filled) before the server starts.
    A link must lie under the store's data folder or its side folder; an existing link is replaced."""
    roots = [Path(values["data"]).resolve(), Path(values["side"]).resolve()]
    for link_t, target_t in links.items():
        link, target = Path(fill(link_t, values)), Path(fill(target_t, values))
        if not any((link.parent.resolve() / link.name).is_relative_to(r) for r in roots):
            raise ValueError(f"[server] links: {link} is outside the data and side folders")
        if not target.exists():
            raise FileNotFoundError(f"[server] links: the target {target} of {link} does not exist")
        link.parent.mkdir(parents=True, exist_ok=True)   # (before the check above, resolve() needs no folder)
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(target, target_is_directory=target.is_dir())


SQLITE3_SHIM = "pysqlite3-binary==0.5.4.post2"
# one line of a .pth file (run by site at start-up): `sqlite3` becomes pysqlite3, which loads extensions
SHIM_PTH = ("import sys, pysqlite3, pysqlite3.dbapi2; sys.modules['sqlite3'] = pysqlite3; "
            "sys.modules['sqlite3.dbapi2'] = pysqlite3.dbapi2\n")


def peer_python(adapter: Adapter) -> tuple[str, bool]:
    """(the interpreter of the peer's venv, whether its sqlite3 must be swapped for pysqlite3).

    With `sqlite_extensions`, an interpreter whose own sqlite3 loads extensions is preferred; when there is
    none of that version (pyenv's builds here), any is taken and the venv gets pysqlite3-binary (SQLite
    built with extension loading, a PyPI wheel) standing in for `sqlite3` through a .pth file."""
    install = adapter.install
    if not install.python:
        return sys.executable, install.sqlite_extensions and subprocess.run(
            [sys.executable, "-c", SQLITE_EXTENSIONS_CHECK], capture_output=True).returncode != 0
    if install.sqlite_extensions:
        try:
            return find_python(install.python, sqlite_extensions=True), False
        except RuntimeError:
            return find_python(install.python), True
    return find_python(install.python), False


def install_commands(adapter: Adapter) -> list[list[str]]:
    """The commands that install the peer (empty when it ships with codemem-bench)."""
    if adapter.install is None:
        return []
    where = peer_dir(adapter)
    if adapter.install.npm:
        return [["npm", "install", "--no-audit", "--no-fund", "--prefix", str(where), adapter.install.npm]]
    python, shim = peer_python(adapter)
    venv_python = str(where / "venv" / "bin" / "python")
    pip = [venv_python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    cmds = [[python, "-m", "venv", str(where / "venv")], pip + [adapter.install.pip or ""]]
    if shim:
        write_pth = (f"import sysconfig, pathlib; pathlib.Path(sysconfig.get_paths()['purelib'], "
                     f"'codemem_bench_sqlite3.pth').write_text({SHIM_PTH!r})")
        cmds += [pip + [SQLITE3_SHIM], [venv_python, "-c", write_pth]]
    return cmds


def install(adapter: Adapter, echo=print) -> None:
    """Run the install commands; an error names the command that failed."""
    peer_dir(adapter).mkdir(parents=True, exist_ok=True)
    if _models_missing(adapter):
        from bench.models.minilm import install_minilm
        echo("$ codemem-bench models install minilm")
        install_minilm(echo=echo)
    for cmd in install_commands(adapter):
        echo("$ " + " ".join(cmd))
        done = subprocess.run(cmd)
        if done.returncode != 0:
            raise RuntimeError(f"installing {adapter.name}: `{' '.join(cmd)}` exited {done.returncode}")
    if not is_installed(adapter):
        raise RuntimeError(f"installing {adapter.name}: {adapter.install.check} is still missing under "
                           f"{peer_dir(adapter)}")
