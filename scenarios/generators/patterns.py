"""Generate `patterns`: smells and secrets planted into copies of real patches, scored by span overlap.

The cases come from scenarios/spec/patterns.toml (the scenario's own kinds,
not any backend's rules). Carriers are real patches from
scenarios/data/<repo>/commits.jsonl that contain none of the spec's `avoid`
expressions, so every case in a fixture is a planted one. Truth goes to
oracle_data/patterns/truth.json, scored by the `score_patterns` directive:

- indexed files: code smells at known byte spans; a backend's `pattern_scan`
  matches are scored by offset overlap with them (span precision/recall);
- memories: smells (scored per memory by `pattern_scan_memories`), secrets
  (their random runs must never read back: redaction recall per kind) and
  decoys (a commit sha, a uuid: must read back intact).

    python scenarios/generators/patterns.py
"""
from __future__ import annotations

import hashlib
import json
import random
import re
import struct
import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pattern_shapes import expand, uuid4  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
NAME = "patterns"
SEED = 4004
REPOS = {"sqlite-utils": "context:data", "httpx": "context:api", "attrs": "context:backend"}  # seed 000 §2.3 contexts
SPEC = ROOT / "scenarios" / "spec" / "patterns.toml"
DATA = ROOT / "scenarios" / "data"
FIXTURES = ROOT / "scenarios" / "fixtures" / "patterns"
TRUTH = ROOT / "oracle_data" / "patterns" / "truth.json"
FILES_PER_REPO, MEMORIES_PER_REPO = 4, 8
TASKS = ["task:debug", "task:refactor", "task:security_review"]
VARS = {"var": ["data", "result", "obj", "cfg", "payload", "rows"],
        "src": ["user_input", "request.args['q']", "path", "blob", "cmd"], "tbl": ["users", "items", "events"]}


def hash64(key: str, person: bytes = b"galaxybrain") -> int:
    """Seed 000 §9: BLAKE2b, 8-byte digest, personalised, read as little-endian u64."""
    h = hashlib.blake2b(key.encode("utf-8"), digest_size=8, person=person.ljust(16, b"\x00"))
    return struct.unpack("<Q", h.digest())[0]


def carriers(repo: str, spec: dict, rng: random.Random) -> list[dict]:
    """The repo's commits whose patch is a clean carrier, in a seeded random order."""
    avoid = [re.compile(p) for p in spec["carriers"]["avoid"]]
    lo, hi = spec["carriers"]["min_chars"], spec["carriers"]["max_chars"]
    out = []
    for line in (DATA / repo / "commits.jsonl").read_text().splitlines():
        c = json.loads(line)
        p = c["patch"]
        if lo <= len(p) <= hi and "\n@@" in p and not any(a.search(p + c["subject"]) for a in avoid):
            out.append(c)
    rng.shuffle(out)
    return out


def smell_text(case: dict, rng: random.Random) -> str:
    return rng.choice(case["lines"]).format(**{k: rng.choice(v) for k, v in VARS.items()})


def plant(patch: str, plants: list[str], rng: random.Random) -> tuple[str, list[tuple[int, int]]]:
    """`patch` with each plant inserted as an added line inside a hunk; the plants' byte spans."""
    lines = patch.split("\n")
    first = next(i for i, ln in enumerate(lines) if ln.startswith("@@"))
    slots = sorted(rng.sample(range(first + 1, len(lines) + 1), len(plants)), reverse=True)
    marked: list[str | tuple[int, str, str]] = list(lines)
    for n, (slot, text) in enumerate(zip(slots, plants)):
        prev = lines[slot - 1][1:] if slot - 1 > first else ""
        marked.insert(slot, (n, re.match(r"[ \t]*", prev).group(0), text))
    out, spans, pos = [], [(0, 0)] * len(plants), 0
    for item in marked:
        if isinstance(item, tuple):
            n, indent, text = item
            head = "+" + indent
            spans[n] = (pos + len(head.encode()), pos + len((head + text).encode()))
            item = head + text.replace("\n", "\n+")
        out.append(item)
        pos += len(item.encode()) + 1
    return "\n".join(out), spans


def excerpt(patch: str, limit: int = 1200) -> str:
    out = ""
    for ln in patch.split("\n"):
        if len(out) + len(ln) > limit and "@@" in out:
            break
        out += ln + "\n"
    return out.rstrip("\n")


def generate() -> tuple[list[dict], dict[str, bytes], dict]:
    spec = tomllib.loads(SPEC.read_text())
    rnd = random.Random(SEED)
    smells, secrets = spec["smell"], spec["secret"]
    files: dict[str, bytes] = {}
    truth: dict = {"source": "scenarios/generators/patterns.py", "files": {}, "memories": {}}
    n_smell = n_secret = 0
    writes = []
    for r, repo in enumerate(REPOS):
        pool = carriers(repo, spec, rnd)
        for n, c in enumerate(pool[:FILES_PER_REPO]):
            cases = [] if n == 0 else [smells[(n_smell := n_smell + 1) % len(smells)] for _ in range(rnd.randint(1, 3))]
            text, spans = plant(c["patch"], [smell_text(k, rnd) for k in cases], rnd)
            rel = f"{repo}/{c['sha'][:12]}.patch"
            files[rel] = text.encode()
            truth["files"][str(hash64(f"file:{rel}"))] = {
                "path": rel, "set": "pat:security-smells",
                "spans": [{"kind": k["kind"], "start": s, "end": e} for k, (s, e) in zip(cases, spans)]}
        for n, c in enumerate(pool[FILES_PER_REPO:FILES_PER_REPO + MEMORIES_PER_REPO]):
            alias = f"{repo.replace('-', '_')}_m{n}"
            mem: dict = {"task": TASKS[(r + n) % 3], "context": [REPOS[repo]], "smells": [], "secrets": [],
                         "decoys": [{"kind": "commit-sha", "value": c["sha"]}, {"kind": "uuid", "value": uuid4(rnd)}]}
            plants = []
            if n % 4 in (0, 1):           # two secrets
                for _ in range(2):
                    case = secrets[n_secret % len(secrets)]
                    n_secret += 1
                    value, runs = expand(case["shape"], rnd)
                    mem["secrets"].append({"kind": case["kind"], "runs": runs})
                    plants.append(case["line"].format(value=value))
            elif n % 4 == 2:              # one smell
                case = smells[(n_smell := n_smell + 1) % len(smells)]
                mem["smells"].append(case["kind"])
                plants.append(smell_text(case, rnd))
            body, _ = plant(excerpt(c["patch"]), plants, rnd)
            decoys = "".join(f"\n{d['value']}" for d in mem["decoys"])
            text = f"{c['subject']}\n\n{body}\n{decoys.strip()}"
            truth["memories"][alias] = mem
            writes.append({"tool": "memory_write_structured", "as": alias,
                           "args": {"text": text, "task": mem["task"], "context": mem["context"]}})
    header = {"scenario": NAME, "format": 1,
              "description": "Code smells and secrets of the kinds in scenarios/spec/patterns.toml planted into copies of "
                             "real patches (sqlite-utils, httpx, attrs): detection scored by offset overlap with the "
                             "planted spans, redaction per kind, decoys kept.",
              "start_time": 1_760_000_000.0,
              "source": "generated by scenarios/generators/patterns.py (seed 4004) from real patches of "
                        "github.com/simonw/sqlite-utils (Apache-2.0), github.com/encode/httpx (BSD-3-Clause), "
                        "github.com/python-attrs/attrs (MIT)",
              "latency_budget_ms": 20,
              "targets": [{"metric": "redaction.recall", "op": ">=", "value": 1.0,
                           "source": "seed 002: secrets redacted before storage"}]}
    steps: list[dict] = [{"directive": "session", "run_id": "patterns", "task_id": "review", "scope": "repo:mixed"}]
    steps += [{"tool": "jit_index_file", "args": {"path": f"fixtures/patterns/{rel}", "root": "fixtures/patterns"}}
              for rel in files]
    steps += [{"tool": "pattern_scan", "args": {"pattern_set_id": "pat:security-smells", "target_key": int(key)}}
              for key in truth["files"]]
    steps += writes
    for alias, mem in truth["memories"].items():
        if mem["secrets"]:
            steps.append({"tool": "memory_get", "args": {"memory_id": f"${alias}"},
                          "expect": {"found": True, "absent": [r for s in mem["secrets"] for r in s["runs"]]}})
    steps.append({"tool": "pattern_scan_memories", "args": {"pattern_set_id": "pat:security-smells"}})
    steps.append({"tool": "pattern_scan_memories", "args": {"pattern_set_id": "pat:security-smells", "task": TASKS[2]}})
    steps.append({"tool": "pattern_scan_memories", "args": {"pattern_set_id": "pat:security-smells",
                                                            "context": [REPOS["httpx"]]}})
    steps.append({"tool": "pattern_scan_memories", "args": {"pattern_set_id": "pat:secrets"}, "expect": {"pairs": {}}})
    steps.append({"directive": "score_patterns", "truth": "../oracle_data/patterns/truth.json"})
    todo = ["TODO\\(\\w+\\)", "FIXME"]
    steps.append({"tool": "pattern_load", "args": {"pattern_set_id": "pat:todo", "patterns": todo,
                  "description": "deferred work markers", "tags": ["hygiene"]}, "expect": {"fields": {"pattern_count": 2}}})
    steps.append({"tool": "memory_write_structured", "as": "todo1",
                  "args": {"text": "TODO(ana): drop the legacy path once clients upgrade. FIXME flaky retry.", "task": "task:refactor"}})
    steps.append({"tool": "pattern_scan_memories", "args": {"pattern_set_id": "pat:todo", "task": "task:refactor"},
                  "expect": {"pairs": {"todo1": ["0", "1"]}}})
    steps.append({"tool": "pattern_load", "args": {"pattern_set_id": "pat:bad", "patterns": ["ok", "foo(?=bar)"]},
                  "expect": {"error": "pattern #1"}})
    steps.append({"tool": "pattern_list", "args": {}, "expect": {"contains": ["pat:secrets", "pat:security-smells", "pat:todo"],
                                                             "excludes": ["pat:bad"]}})
    steps.append({"tool": "pattern_scan", "args": {"pattern_set_id": "pat:nope", "target_key": int(next(iter(truth["files"])))},
                  "expect": {"error": "pat:nope"}})
    return [header, *steps], files, truth


def render(lines: list[dict]) -> str:
    return "".join(json.dumps(x, sort_keys=True) + "\n" for x in lines)


def main() -> int:
    lines, files, truth = generate()
    for old in FIXTURES.rglob("*"):
        if old.is_file():
            old.unlink()
    for rel, data in files.items():
        (FIXTURES / rel).parent.mkdir(parents=True, exist_ok=True)
        (FIXTURES / rel).write_bytes(data)
    TRUTH.parent.mkdir(parents=True, exist_ok=True)
    TRUTH.write_text(json.dumps(truth, indent=1, sort_keys=True) + "\n")
    out = ROOT / "scenarios" / f"{NAME}.jsonl"
    out.write_text(render(lines))
    print(f"{out.relative_to(ROOT)}: {len(lines) - 1} steps; {len(files)} fixture files", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
