"""`Repo`: a throw-away git repository driven with real git commands (shared by the project tests)."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

GIT_ENV = {"GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "Test",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent"}


class Repo:
    """A throw-away git repository driven with real git commands."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.env = {**os.environ, **GIT_ENV, "HOME": str(path.parent)}
        self.time = 1_700_000_000
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str) -> str:
        proc = subprocess.run(["git", *args], cwd=self.path, env=self.env, capture_output=True, text=True)
        if proc.returncode != 0:
            raise AssertionError(f"git {' '.join(args)} failed: {proc.stderr}")
        return proc.stdout.strip()

    def commit(self, message: str, files: dict[str, str], step: int = 60) -> str:
        """Write `files`, commit them at a fixed time (step seconds after the last), return the sha."""
        for name, text in files.items():
            p = self.path / name
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)
            self.git("add", name)
        self.time += step
        stamp = f"{self.time} +0000"
        self.env["GIT_AUTHOR_DATE"] = self.env["GIT_COMMITTER_DATE"] = stamp
        self.git("commit", "-q", "-m", message)
        return self.git("rev-parse", "HEAD")
