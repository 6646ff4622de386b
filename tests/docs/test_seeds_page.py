"""docs/seeds.md explains every seed section and ranker a report can cite, and nothing reads the seeds' files.

A report shows each target's `source` (`seed 003 §9: ...`) and names rankers (`reference:memory-lane`); a
reader looks them up in docs/seeds.md, so every such section must be in that seed's part of the page and
every ranker in its ranker table. The seeds themselves are outside the repository: no code or test may read them.
"""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "seeds.md"


def seed_parts(text: str) -> dict[str, str]:
    """`000` -> the text of the page's `## Seed 000` part."""
    parts = re.split(r"^## Seed (\d{3})\b", text, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def cited_sections() -> set[tuple[str, str]]:
    """(seed, §section) of every target source in the scenario headers (line 1 of each file)."""
    out = set()
    for path in (ROOT / "scenarios").glob("*.jsonl"):
        header = json.loads(path.read_text(encoding="utf-8").split("\n", 1)[0])
        for t in header.get("targets") or []:
            out |= set(re.findall(r"seed (\d{3}) (§\d+(?:\.\d+)?)", t.get("source", "")))
    return out


def test_every_cited_seed_section_is_explained():
    parts = seed_parts(PAGE.read_text(encoding="utf-8"))
    assert set(parts) == {"000", "001", "002", "003", "004"}, sorted(parts)
    cited = cited_sections()
    assert cited, "no scenario target cites a seed section"
    missing = [f"seed {s} {sec}" for s, sec in sorted(cited) if not re.search(rf"{sec}(?![\d.])", parts[s])]
    assert not missing, "docs/seeds.md does not explain: " + ", ".join(missing)


def test_every_ranker_is_explained():
    from bench.backends.reference.backend import ReferenceBackend
    text = PAGE.read_text(encoding="utf-8")
    table = text[text.index("| ranker |"):]
    missing = [o for o in ReferenceBackend.options if f"`{o}`" not in table.split("\n\n")[0]]
    assert not missing, f"docs/seeds.md ranker table lacks: {missing}"


def test_nothing_reads_the_seeds_files():
    files = subprocess.run(["git", "ls-files", "*.py", "*.sh", "*.toml", ".ci/*"], cwd=ROOT, capture_output=True,
                           text=True, timeout=30).stdout.split()
    me = Path(__file__).resolve().relative_to(ROOT).as_posix()
    hits = [f for f in files if f != me and (ROOT / f).is_file()
            and re.search(r"shared/seeds|/work/shared|\.\./shared", (ROOT / f).read_text(encoding="utf-8", errors="replace"))]
    assert not hits, f"these read the seeds from outside the repository: {hits}"
