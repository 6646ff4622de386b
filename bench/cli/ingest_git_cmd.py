"""`codemem-bench ingest-git`: load a git history into the reference store's project memory (seed 002).

    codemem-bench ingest-git REPO --data DIR              # a real repository (read with git)
    codemem-bench ingest-git --dataset FOLDER --data DIR  # a data set like scenarios/data/sqlite-utils
    codemem-bench ingest-git --install-hook REPO --data DIR
    codemem-bench ingest-git REPO --data DIR --placeholder SESSION --summary TEXT

Ingest writes every commit as a memory at the commit's time (a logical clock
set per commit), skips documents already stored (a second ingest stores
nothing), shows progress on stderr and ends with one line: commits, branches,
new memories, duplicates, seconds, bytes. `--gc` then deletes the memories of
branches the repository no longer has. Details: reference/project/README.md.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from reference.clock import LogicalClock
from reference.errors import StoreError

from bench.cli.progress import progress_printer

NAME = "ingest-git"
HELP = ("Ingest a git repository (or a history data set) into the project memory of a reference store; "
        "install its post-commit hook; record a session placeholder.")


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("repo", nargs="?", type=Path, help="the git repository (not with --dataset)")
    p.add_argument("--data", type=Path, required=True, help="the store's data directory (created if missing)")
    p.add_argument("--dataset", type=Path, metavar="FOLDER",
                   help="ingest a data set in the scenarios/data/sqlite-utils format instead of a repository")
    p.add_argument("--snapshot", action="store_true",
                   help="with --dataset: also index the data set's snapshot.jsonl as code")
    p.add_argument("--default-branch", metavar="NAME", help="the default branch (default: main, master, or HEAD's)")
    p.add_argument("--gc", action="store_true", help="after ingesting REPO, delete memories of branches it lacks")
    p.add_argument("--install-hook", action="store_true",
                   help="install the post-commit hook in REPO (writes REPO's hooks/post-commit) and exit")
    p.add_argument("--force", action="store_true", help="with --install-hook: replace another post-commit hook")
    p.add_argument("--placeholder", metavar="SESSION_ID",
                   help="record that session SESSION_ID consulted the memory at REPO's HEAD (needs --summary)")
    p.add_argument("--summary", help="with --placeholder: what the session discussed")
    p.add_argument("--quiet", action="store_true", help="no progress lines")


def _check(args: argparse.Namespace) -> None:
    if args.dataset is not None and args.repo is not None:
        raise ValueError("give either REPO or --dataset FOLDER, not both")
    if args.dataset is None and args.repo is None:
        raise ValueError("give a repository path REPO or --dataset FOLDER")
    if (args.install_hook or args.placeholder or args.gc) and args.repo is None:
        raise ValueError("--install-hook, --placeholder and --gc need a repository path REPO")
    if args.placeholder and not args.summary:
        raise ValueError("--placeholder needs --summary TEXT")
    if args.snapshot and args.dataset is None:
        raise ValueError("--snapshot applies to --dataset only")


def run(args: argparse.Namespace) -> int:
    try:
        _check(args)
        return _run(args)
    except StoreError as exc:
        print(f"codemem-bench ingest-git: error: {exc}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    from reference.project import hook

    if args.install_hook:
        path = hook.install_hook(args.repo, args.data, force=args.force)
        print(f"installed {path}: every commit in {args.repo} is recorded in {args.data.resolve()}")
        return 0
    if args.placeholder:
        w = hook.record_placeholder(args.repo, args.data, args.placeholder, args.summary)
        print(f"placeholder {w.memory_id} on {w.branch}" + (" (already stored)" if w.duplicate else ""))
        return 0
    return _ingest(args)


def _ingest(args: argparse.Namespace) -> int:
    from reference.project import ProjectMemory, ingest_history, read_dataset, read_repository
    from reference.project.gitrepo import local_branches
    from reference.project.snapshot import index_snapshot
    from reference.store import MemoryStore

    t0 = time.perf_counter()
    if args.dataset is not None:
        history = read_dataset(args.dataset)
        if args.default_branch and args.default_branch != history.default_branch:
            raise ValueError(f"{args.dataset}/meta.json names default branch {history.default_branch!r}")
    else:
        history = read_repository(args.repo, args.default_branch)
    store = MemoryStore.open(args.data, clock=LogicalClock(0.0))
    try:
        project = ProjectMemory.for_store(store)
        result = ingest_history(project, history, progress_printer(args.quiet, "commits")("ingest", 0))
        if args.snapshot:
            snap = args.dataset / "snapshot.jsonl"
            r = index_snapshot(store, [json.loads(x) for x in snap.read_text(encoding="utf-8").splitlines() if x])
            print(f"indexed {r.files_indexed} snapshot files ({r.chunks} chunks, {r.symbols} symbols)")
        if args.gc:
            gc = project.gc(local_branches(args.repo))
            print(f"gc: deleted {gc.deleted_memories} memories of {len(gc.deleted_branches)} deleted branch(es)")
        store.tracker.checkpoint()
    finally:
        store.close()
    size = sum(p.stat().st_size for p in args.data.rglob("*") if p.is_file())
    seconds = time.perf_counter() - t0
    print(f"ingested {result.commits} commits on {result.branches} branches (default {result.default_branch}): "
          f"{result.written} new memories, {result.duplicates} duplicates skipped, {result.promoted} promoted, "
          f"{result.bound} placeholders bound; {seconds:.1f} s; store {size:,} bytes in {args.data}")
    return 0 if result.commits else 3
