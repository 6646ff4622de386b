"""The text of commit memories and queries, and a bounded summary of a patch."""
from __future__ import annotations

import re

BODY_CHARS = 600      # a body is cut here in queries and memories
FILES_LISTED = 40     # a memory names at most this many files
PATCH_CHARS = 400     # a memory's patch summary is cut here
MIN_QUERY_CHARS = 20  # shorter queries ("wip", "typo") are not asked

_FILE = re.compile(r"^diff --git a/(\S+) b/(\S+)$")
_HUNK = re.compile(r"^@@ [^@]* @@ ?(.*)$")


def message(c: dict) -> str:
    """Subject, blank line, body (the whole commit message)."""
    return f"{c['subject'].strip()}\n\n{c['body'].strip()}".strip()


def query_text(c: dict) -> str:
    """What an agent knows before the change: the subject and the body (cut at BODY_CHARS)."""
    return f"{c['subject'].strip()}\n\n{c['body'].strip()[:BODY_CHARS]}".strip()


def patch_summary(patch: str, cap: int = PATCH_CHARS) -> str:
    """Per file: its path and the enclosing definitions its hunks name (at most half of `cap`); then changed lines."""
    heads: list[str] = []
    changed: list[str] = []
    path, contexts = None, []
    for line in patch.splitlines():
        m = _FILE.match(line)
        if m:
            if path is not None:
                heads.append(f"{path}" + (f" ({'; '.join(contexts[:3])})" if contexts else ""))
            path, contexts = m.group(2), []
            continue
        h = _HUNK.match(line)
        if h:
            ctx = h.group(1).strip()
            if ctx and ctx not in contexts:
                contexts.append(ctx[:60])
        elif line[:1] in "+-" and not line.startswith(("+++", "---")) and line[1:].strip():
            changed.append(line[0] + " ".join(line[1:].split())[:80])
    if path is not None:
        heads.append(f"{path}" + (f" ({'; '.join(contexts[:3])})" if contexts else ""))
    text = _cut("; ".join(heads), cap // 2)   # leave room for the changed lines themselves
    if changed:
        text += " | " + " / ".join(changed)
    return _cut(text, cap)


def _cut(text: str, cap: int) -> str:
    return text if len(text) <= cap else text[:cap].rsplit(" ", 1)[0] + " ..."


def memory_text(c: dict) -> str:
    """A commit memory: subject, body, the files changed and a bounded patch summary."""
    paths = [f["path"] for f in c["files"]]
    files = ", ".join(paths[:FILES_LISTED]) + (f" (+{len(paths) - FILES_LISTED} more)" if len(paths) > FILES_LISTED else "")
    parts = [c["subject"].strip(), c["body"].strip()[:BODY_CHARS], f"Files changed: {files}" if paths else ""]
    summary = patch_summary(c.get("patch") or "")
    if summary:
        parts.append(f"Patch: {summary}")
    return "\n\n".join(p for p in parts if p)
