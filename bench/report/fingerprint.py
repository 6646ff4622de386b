"""Where a report was made: the machine's fingerprint and the run's provenance.

`environment()` is the `environment` section of report.json: CPU model and count,
Python, platform, package versions, the project's git commit and the UTC date (metadata
only; scenario time comes from the injected clock). `machine` holds what decides whether
two reports' latencies may be compared; `machine_differences` names what differs.
"""
from __future__ import annotations

import os
import platform
import socket
import subprocess
import sys
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

PACKAGES = ("codemem-bench", "numpy", "scipy", "scikit-learn", "hyperscan", "lmdb", "mcp", "apsw", "sqlite-vec",
            "chromadb")
# fields of `machine` that must be equal for latencies to be comparable
MACHINE_FIELDS = ("cpu_model", "cpu_count", "arch", "system", "hostname", "python")


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo, else `platform.processor()`, else "unknown"."""
    try:
        for line in Path("/proc/cpuinfo").read_text(errors="replace").splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine() -> dict[str, Any]:
    """What identifies the machine and interpreter a latency was measured on."""
    return {"cpu_model": cpu_model(), "cpu_count": os.cpu_count() or 0, "arch": platform.machine(),
            "system": platform.system(), "hostname": socket.gethostname(),
            "python": f"{platform.python_implementation()} {sys.version.split()[0]}"}


def git_commit(root: Path | None = None) -> str:
    """`git rev-parse HEAD` of the project (with `+dirty` for uncommitted changes), or "unknown"."""
    root = root or Path(__file__).resolve().parents[2]
    if not (root / ".git").exists():   # an installed wheel: site-packages may sit inside some other repository
        return "unknown"
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True,
                              timeout=5, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, timeout=5, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return f"{head}+dirty" if head and dirty else head or "unknown"


def package_versions() -> dict[str, str]:
    out = {}
    for p in PACKAGES:
        try:
            out[p] = version(p)
        except PackageNotFoundError:
            out[p] = "absent"
    return out


JOB_ENV = "CODEMEM_BENCH_JOB"


def environment() -> dict[str, Any]:
    """The `environment` section of a new report.

    `job` names the run of a same-job recipe the report belongs to (`$CODEMEM_BENCH_JOB`, `run --job`,
    set by `gate --against` and `compare`); `gate` compares latency only between reports of one job.
    `embedder` is `$CODEMEM_EMBEDDER` (None: the store's default); `embed_cache` is true when the opt-in row
    cache `$CODEMEM_EMBED_CACHE` was on, whose write latencies are not the embedder's (reference/embed/cache.py).
    """
    return {"python": sys.version.split()[0], "platform": platform.platform(), "packages": package_versions(),
            "machine": machine(), "commit": git_commit(), "job": os.environ.get(JOB_ENV) or None,
            "embedder": os.environ.get("CODEMEM_EMBEDDER", "").strip() or None,
            "embed_cache": bool(os.environ.get("CODEMEM_EMBED_CACHE", "").strip()),
            "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}


def job_difference(a: dict[str, Any], b: dict[str, Any]) -> str | None:
    """Why two environments are not of one job (None when they are: the same non-empty `job`)."""
    ja, jb = a.get("job"), b.get("job")
    if ja and ja == jb:
        return None
    if not ja and not jb:
        return "neither report names a job"
    return f"jobs {ja or 'none'} vs {jb or 'none'}"


def machine_differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """What differs between two reports' machines, e.g. `cpu_count 2 vs 8`; a side without a
    fingerprint (a report made before it was recorded) gives `no machine fingerprint in ...`."""
    ma, mb = a.get("machine"), b.get("machine")
    if not ma or not mb:
        sides = [n for n, m in (("the report", ma), ("the baseline", mb)) if not m]
        return [f"no machine fingerprint in {' and '.join(sides)}"]
    return [f"{f} {_short(ma.get(f))} vs {_short(mb.get(f))}" for f in MACHINE_FIELDS if ma.get(f) != mb.get(f)]


def _short(v: Any) -> str:
    s = str(v)
    return s if len(s) <= 40 else s[:37] + "..."
