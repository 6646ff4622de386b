"""Errors of the project memory layer (seed 002); each says what was wrong and where."""
from __future__ import annotations

from reference.errors import StoreError


class ProjectError(StoreError, ValueError):
    """A project memory call got an argument it cannot use (bad sha, branch name, ...)."""


class GitError(ProjectError):
    """A `git` command failed or the path is not a git repository; names the command and the repo."""


class DatasetError(ProjectError):
    """A history data set (scenarios/data/sqlite-utils format) is malformed; names file, line and field."""


class HookError(ProjectError):
    """The post-commit hook cannot be installed (another hook is in place, no hooks folder, ...)."""
