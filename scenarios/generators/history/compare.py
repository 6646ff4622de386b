"""Does `extract.py` reproduce a format-2 folder? Extract a repository at the folder's tip and compare.

    python3 -m scenarios.generators.history.compare path/to/repo path/to/format-2-folder

Extracts the git repository at the commit that the folder's `meta.json` names as its tip (into a temporary
folder, removed after) and compares `commits.jsonl` and `blame.jsonl` record by record, keyed by sha: the
order of the records, records on one side only, and each field that differs (with up to three shas).
Branches are not compared: a repository's branches move after an extraction. Exit 0 when both files are
the same record for record, 1 when anything differs, 2 on bad input.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from .dataset import DataError, read_jsonl
from .extract import extract

COMPARED = ("commits.jsonl", "blame.jsonl")


def differences(ours: list[dict], theirs: list[dict]) -> list[str]:
    """What differs between two lists of records with a `sha` each, one line a difference (none: the same)."""
    out = []
    if [r["sha"] for r in ours] != [r["sha"] for r in theirs]:
        out.append("the records are in another order, or other records")
    by_sha = {r["sha"]: r for r in theirs}
    only_ours = [r["sha"] for r in ours if r["sha"] not in by_sha]
    only_theirs = sorted(set(by_sha) - {r["sha"] for r in ours})
    for label, shas in (("only in the extraction", only_ours), ("only in the folder", only_theirs)):
        if shas:
            out.append(f"{len(shas)} records {label}, e.g. {', '.join(s[:10] for s in shas[:3])}")
    fields: dict[str, list[str]] = {}
    for r in ours:
        other = by_sha.get(r["sha"])
        if other is not None:
            for key in sorted(set(r) | set(other)):
                if r.get(key) != other.get(key):
                    fields.setdefault(key, []).append(r["sha"])
    for key, shas in fields.items():
        out.append(f"field {key!r} differs in {len(shas)} records, e.g. {', '.join(s[:10] for s in shas[:3])}")
    return out


def compare(repo: str | Path, folder: str | Path, out=sys.stdout) -> bool:
    """Print the comparison of `repo`'s extraction at `folder`'s tip with `folder`; True when nothing differs."""
    folder = Path(folder)
    try:
        tip = json.loads((folder / "meta.json").read_text())["tip"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise DataError(f"{folder / 'meta.json'}: no tip to extract at ({exc})") from None
    same = True
    with tempfile.TemporaryDirectory() as tmp:
        got = extract(repo, Path(tmp) / "data", default=tip)
        for name in COMPARED:
            ours, theirs = read_jsonl(got / name), read_jsonl(folder / name)
            diff = differences(ours, theirs)
            same = same and not diff
            print(f"{name}: {len(ours)} records extracted, {len(theirs)} in {folder}: "
                  + ("the same, record for record" if not diff else "different"), file=out)
            for line in diff:
                print(f"  {line}", file=out)
    return same


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m scenarios.generators.history.compare",
                                 description=__doc__.strip().splitlines()[0])
    ap.add_argument("repo", help="a git repository (with a work tree, or bare)")
    ap.add_argument("folder", help="a format-2 folder whose meta.json names the tip")
    args = ap.parse_args(argv)
    try:
        return 0 if compare(args.repo, args.folder) else 1
    except (DataError, ValueError) as exc:
        print(f"compare: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
