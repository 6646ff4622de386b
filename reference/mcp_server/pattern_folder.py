"""`PatternSetFolder`: pattern sets loaded through `pattern_load`, kept in the data folder.

`PatternSetManager` holds sets in memory (seed 000 §9: "PatternSets: in-memory").
Several agents share one data folder, each with its own server process, so a
set one agent loads must reach the others and outlive the process: the server
writes each loaded definition to `<data>/pattern_sets/<slug>.json` (written to
a temporary name, then renamed; by name under the data folder, never
through a symlink: `reference.path_policy`) and, before every pattern tool call, loads the
files that are new or changed since it last looked (by mtime and size).

A file that fails to load (edited by hand, say) is logged and skipped until it
changes again; the other sets keep working. A symlink, or a file resolving outside
the data folder, is never read (logged and skipped the same way).
"""
from __future__ import annotations

import json
import logging
import os
import threading
from pathlib import Path
from typing import Any

from reference.path_policy import PathPolicy
from reference.patterns import PatternError, PatternSet, PatternSetManager

log = logging.getLogger("reference.mcp_server")

FOLDER = "pattern_sets"


class PatternSetFolder:
    """Persists `pattern_load` definitions and replays other processes' loads into `manager`."""

    def __init__(self, policy: PathPolicy, manager: PatternSetManager) -> None:
        self.policy = policy
        self.path = policy.data_dir / FOLDER
        self.manager = manager
        self._seen: dict[str, tuple[int, int]] = {}
        self._lock = threading.Lock()

    def save(self, definition: dict[str, Any]) -> PatternSet:
        """Compile and install `definition`, then persist it for the other servers."""
        definition = self.manager.screened(definition)  # no secret on disk: reference/patterns/definition_secrets.py
        with self._lock:
            # the file is checked first, so a refused write loads nothing
            target = self.policy.named_file(FOLDER, str(definition["id"]).split(":", 1)[-1], ".json",
                                            "pattern_set_id")
            ps = self.manager.load(definition)
            tmp = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
            tmp.write_text(json.dumps(definition, sort_keys=True, indent=1) + "\n", encoding="utf-8")
            os.replace(tmp, target)
            self._seen[target.name] = _signature(target)
            return ps

    def sync(self) -> None:
        """Load definition files that appeared or changed since the last call."""
        if not self.path.is_dir():
            return
        with self._lock:
            for file in sorted(self.path.glob("*.json")):
                sig = _signature(file)
                if sig is None or self._seen.get(file.name) == sig:
                    continue
                self._seen[file.name] = sig
                if not self.policy.stays_inside(file):      # a planted symlink out of the data folder
                    log.warning("pattern set file %s not loaded: it is a symlink or leads outside the data "
                                "folder (rule: files in the data folder are never read through a symlink)", file)
                    continue
                try:
                    self.manager.load_file(file)
                except (PatternError, OSError, ValueError) as exc:
                    log.warning("pattern set file %s not loaded: %s", file, exc)


def _signature(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (st.st_mtime_ns, st.st_size)
