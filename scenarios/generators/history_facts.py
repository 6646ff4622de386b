"""Facts of a real history in format 2 (scenarios/data/<repo>/): entities, reverts, rewrites, shared functions.

Every rule here is written out in scenarios/README.md ("Knowledge truth from
real history"); nothing depends on a memory backend. Used by knowledge_history.py.
"""
from __future__ import annotations

import json
import re
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path

BODY_CHARS = 400
CALIBRATION_EVERY = 10       # commit i of commits.jsonl is a calibration commit when i % 10 == 0
REWRITE_MIN_LINES, REWRITE_MIN_SHARE = 5, 0.5
_HUNK = re.compile(r"^@@ [^@]+ @@ ?(.*)$")
_DEF = re.compile(r"\b(?:async\s+def|def|class)\s+([A-Za-z_]\w*)")
_ISSUE = re.compile(r"(?<![\w/&])#(\d{1,6})\b")
_VERSION = re.compile(r"(?i)(?:\bv|\bversions?\s+v?|\breleases?d?\s+v?)(\d+\.\d+(?:\.\d+)?(?:(?:a|b|rc)\d+)?)\b")
_DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")
_REVERT = re.compile(r'^Revert "(.*)"(?: \(#\d+\))?$')
_REVERTS_SHA = re.compile(r"This reverts commit ([0-9a-f]{40})")
_PR_SUFFIX = re.compile(r" \(#\d+\)$")


def load(data_dir: Path) -> tuple[list[dict], dict[str, dict]]:
    """The default-branch commits (oldest first, each with `index`) and blame records by sha."""
    commits = [json.loads(x) for x in (data_dir / "commits.jsonl").read_text().splitlines() if x.strip()]
    for i, c in enumerate(commits):
        c["index"] = i
    blame_file = data_dir / "blame.jsonl"
    blame = {}
    if blame_file.exists():
        blame = {b["sha"]: b for b in map(json.loads, blame_file.read_text().splitlines()) if b}
    return commits, blame


def is_calibration(c: dict) -> bool:
    return c["index"] % CALIBRATION_EVERY == 0


def functions(c: dict) -> list[tuple[str, str]]:
    """(path, name) of each `def`/`class` named in the context of the commit's hunk headers, in order."""
    out, path = [], None
    for ln in c["patch"].split("\n"):
        if ln.startswith("+++ "):
            path = ln[6:] if ln.startswith("+++ b/") else None
        elif path and (m := _HUNK.match(ln)) and (d := _DEF.search(m.group(1))):
            out.append((path, d.group(1)))
    return list(dict.fromkeys(out))


def day(c: dict) -> str:
    return datetime.fromtimestamp(c["commit_time"], tz=timezone.utc).date().isoformat()


def body_excerpt(body: str) -> str:
    body = body.strip()
    if len(body) <= BODY_CHARS:
        return body
    cut = body[:BODY_CHARS].rsplit(" ", 1)[0]
    return cut + " ..."


def memory_text(c: dict) -> str:
    """What a memory of the commit holds: subject, a bounded body, its date, files and changed functions."""
    parts = [c["subject"].strip()]
    if body := body_excerpt(c["body"]):
        parts.append(body)
    lines = [f"Committed {day(c)}.", "Files: " + ", ".join(f["path"] for f in c["files"])]
    funcs: dict[str, list[str]] = defaultdict(list)
    for path, name in functions(c):
        funcs[path].append(name)
    if funcs:
        lines.append("Changed: " + "; ".join(f"{p} ({', '.join(n)})" for p, n in funcs.items()))
    return "\n\n".join(parts) + "\n\n" + "\n".join(lines)


def module_of(path: str) -> str | None:
    """`pkg/sub/mod.py` -> `pkg.sub.mod`, `pkg/__init__.py` -> `pkg`; None unless every part is an identifier."""
    if not path.endswith(".py"):
        return None
    parts = path[:-3].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    if not parts or not all(p.isidentifier() for p in parts):
        return None
    return ".".join(parts)


def entities(c: dict) -> list[str]:
    """The entity ids an annotator marks in the commit's memory text (rules: scenarios/README.md)."""
    prose = c["subject"] + "\n" + body_excerpt(c["body"])
    out = {f"file:{f['path']}" for f in c["files"]}
    out |= {f"module:{m}" for f in c["files"] if (m := module_of(f["path"]))}
    out |= {f"symbol:{name.lower()}" for _, name in functions(c)}
    out |= {f"issue:{n}" for n in _ISSUE.findall(prose)}
    out |= {f"version:{v}" for v in _VERSION.findall(prose)}
    out |= {f"time:{d}" for d in _DATE.findall(prose)} | {f"time:{day(c)}"}
    return sorted(out)


def reverts(commits: list[dict]) -> list[tuple[dict, dict]]:
    """(revert, reverted) pairs: the body names the sha, or the subject quotes an earlier subject."""
    by_sha = {c["sha"]: c for c in commits}
    last_by_subject: dict[str, dict] = {}
    out = []
    for c in commits:
        target = None
        if (m := _REVERTS_SHA.search(c["body"])) and m.group(1) in by_sha:
            target = by_sha[m.group(1)]
        elif m := _REVERT.match(c["subject"]):
            target = last_by_subject.get(_PR_SUFFIX.sub("", m.group(1)))
        if target is not None and target["index"] < c["index"]:
            out.append((c, target))
        last_by_subject[_PR_SUFFIX.sub("", c["subject"])] = c
    return out


def rewrites(commits: list[dict], blame: dict[str, dict]) -> list[tuple[dict, dict]]:
    """(later, earlier): the later commit deletes or rewrites at least 5 lines and half of what the earlier added."""
    by_sha = {c["sha"]: c for c in commits}
    out = []
    for c in commits:
        for origin, lines in (blame.get(c["sha"], {}).get("origins") or {}).items():
            e = by_sha.get(origin)
            if e is None or not e["patch"]:
                continue
            added = sum(f["added"] or 0 for f in e["files"])
            if lines >= REWRITE_MIN_LINES and added and lines >= REWRITE_MIN_SHARE * added:
                out.append((c, e))
    return out


def shared_functions(commits: list[dict]) -> list[tuple[dict, dict]]:
    """(later, earlier): consecutive commits whose hunk headers name the same function of the same file."""
    last: dict[tuple[str, str], dict] = {}
    out = {}
    for c in commits:
        for key in functions(c):
            if key in last:
                out[(c["sha"], last[key]["sha"])] = (c, last[key])
            last[key] = c
    return list(out.values())
