"""Hunk granularity: after each commit memory, one memory per hunk of that commit's patch.

`expand(lines, ds)` takes a task's scenario lines (commit granularity) and puts,
right after every commit memory (`memory_write_structured` whose metadata names
a `commit_sha`), one memory per hunk of that commit's patch, in patch order, at
the same clock. Queries and judgements are untouched: the relevant items stay
the commit memories, so the hunks are extra, real, same-topic memories a
backend must rank below or beside them. A hunk memory's alias is
`c<sha10>-h<n>` (n from 1). Patches in the data are cut at 6,000 characters, so
a long commit gives the hunks that fit. Nothing is invented: every text comes
from the data.
"""
from __future__ import annotations

import re

from .dataset import Dataset
from .layout import Layout, task_for
from .texts import PATCH_CHARS, _cut

_FILE = re.compile(r"^diff --git a/(\S+) b/(\S+)$")
_HUNK = re.compile(r"^@@ [^@]* @@ ?(.*)$")


def hunks(patch: str) -> list[tuple[str, str, list[str]]]:
    """(path, enclosing definition, changed lines) of each hunk, in patch order."""
    out: list[tuple[str, str, list[str]]] = []
    path = None
    for line in patch.splitlines():
        m = _FILE.match(line)
        if m:
            path = m.group(2)
            continue
        h = _HUNK.match(line)
        if h and path is not None:
            out.append((path, h.group(1).strip()[:60], []))
        elif out and line[:1] in "+-" and not line.startswith(("+++", "---")) and line[1:].strip():
            out[-1][2].append(line[0] + " ".join(line[1:].split())[:80])
    return out


def hunk_text(c: dict, path: str, context: str, changed: list[str]) -> str:
    """A hunk memory: the commit's subject, the file and definition, then the changed lines (cut)."""
    where = f"{path} ({context})" if context else path
    body = _cut(" / ".join(changed), PATCH_CHARS) if changed else "(no changed text lines)"
    return f"{c['subject'].strip()}\n\nHunk in {where}\n\n{body}"


def hunk_steps(c: dict, step: dict, layout: Layout) -> list[dict]:
    """The hunk memories of commit `c`, written by the same agent as its commit memory `step`."""
    out = []
    for n, (path, context, changed) in enumerate(hunks(c.get("patch") or ""), start=1):
        args = step["args"]
        out.append({"tool": "memory_write_structured", "as": f"{step['as']}-h{n}", "args": {
            "text": hunk_text(c, path, context, changed), "task": task_for(c["subject"]),
            "context": layout.contexts([path]), "tags": [path.split("/")[0]],
            **({"scope": args["scope"]} if "scope" in args else {}),
            "metadata": {"commit_sha": c["sha"], "files_changed": [path], "hunk": n,
                         "git_time": c["commit_time"]}}})
    return out


def expand(lines: list[dict], ds: Dataset, layout: Layout) -> list[dict]:
    """`lines` with each commit memory followed by its hunk memories (header and other steps unchanged)."""
    by_sha = {**ds.branch_commits, **{c["sha"]: c for c in ds.commits}}
    out = []
    for step in lines:
        out.append(step)
        sha = (step.get("args") or {}).get("metadata", {}).get("commit_sha") \
            if step.get("tool") == "memory_write_structured" and "as" in step else None
        if sha in by_sha:
            out += hunk_steps(by_sha[sha], step, layout)
    return out


def count(ds: Dataset) -> int:
    """How many hunk memories the default branch's non-merge commits give."""
    return sum(len(hunks(c.get("patch") or "")) for c in ds.work)
