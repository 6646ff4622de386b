"""Speed of PatternSets: scan throughput, compile and cached load, against a loop of `re`.

Run:  python -m pytest bench/benchmarks/bench_patterns.py --benchmark-only
Scale: CODEMEM_BENCH_SCALE=small (2 MB of text, default) or full (32 MB).
See the figures: add --benchmark-json=out.json (ratios are in extra_info).

The reference text is deterministic synthetic source code (Python-like lines
built from common programming words and a long tail of project-specific
ones); the scan-versus-re comparison is also run on this interpreter's
standard-library sources as a real-code data point. The sets of 50 and 500 patterns are
deterministic "literal + class" patterns of the kinds code scanners use (calls
of a named function, attribute calls, imports, assignments of string literals,
error classes, comments with words, subscripts, snake_case families ...).

The baseline is what a caller would write without Hyperscan: one
`re.finditer` per pattern, the same `PatternMatch` objects built, sorted the
same way. It is timed in the same run as the API scan and the ratio is
recorded in `extra_info["ratio_vs_re"]`; the benchmark also checks (not a
timing check) that both give exactly the same matches.
"""
from __future__ import annotations

import itertools
import os
import random
import re
import sysconfig
import time
from pathlib import Path

import pytest

from reference.patterns import PatternMatch, PatternSetManager, Redactor

SCALE = os.environ.get("CODEMEM_BENCH_SCALE", "small")
TEXT_BYTES = {"small": 2_000_000, "full": 32_000_000}[SCALE]
SET_SIZES = (50, 500)

WORDS = """get set add remove update create delete load save read write open close parse format build
render fetch send receive handle process validate check compute apply merge split join filter sort map
reduce user account session token config settings option value data item record entry node edge graph
tree list dict queue stack cache buffer stream file path name key id index count total size length
limit offset page result response request client server handler worker task job event message error
state status mode flag level type kind model view controller service manager factory builder adapter
store repo query schema table column row field default current next prev first last max min new old
raw temp local remote input output source target start end begin finish init reset clear flush commit
retry timeout delay interval price amount invoice order payment customer product cart tax rate
currency report metric log trace span debug info warning status health ping auth login logout
permission role group team project branch commit diff patch version release build deploy""".split()
COMMENT_WORDS = """the a of to in for is on that by this with it as be are from or at an not we
when if then should must will may can because so but only all any each every more less""".split()


SYLLABLES = ("ba be bi bo bu ca ce ci co da de di do fa fe fi ga ge go ha he hi ka ke ki ko la le li lo lu "
             "ma me mi mo na ne ni no pa pe pi po ra re ri ro sa se si so ta te ti to va ve vi wa xe za zo").split()


def _pseudo_words(rng: random.Random, n: int) -> list[str]:
    words: set[str] = set()
    while len(words) < n:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.choice((2, 2, 3, 3, 4)))))
    return sorted(words)


class _TextWords:
    """Words of the generated code: a third from WORDS, the rest a Zipf-distributed long tail.

    Real code mixes a few hundred common words with thousands of project-specific
    ones; a text made of the patterns' own words only would make every literal
    of every pattern fire every few bytes, which no real scan sees.
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.tail = _pseudo_words(rng, 4000)
        rng.shuffle(self.tail)  # rank (hence frequency) must not follow the alphabet
        self.cum = list(itertools.accumulate(1.0 / (r + 1) for r in range(len(self.tail))))

    def __call__(self) -> str:
        if self.rng.random() < 0.35:
            return self.rng.choice(WORDS)
        return self.rng.choices(self.tail, cum_weights=self.cum)[0]


def _ident(rng: random.Random, k: int | None = None, word=None) -> str:
    word = word or (lambda: rng.choice(WORDS))
    return "_".join(word() for _ in range(k or rng.choice((1, 2, 2, 3))))


def _camel(rng: random.Random, word=None) -> str:
    word = word or (lambda: rng.choice(WORDS))
    return "".join(word().title() for _ in range(rng.choice((1, 2, 2))))


def _comment(rng: random.Random, word) -> str:
    return " ".join(rng.choice(COMMENT_WORDS) if rng.random() < 0.4 else word() for _ in range(rng.randint(4, 10)))


def source_text(size: int, seed: int = 20240601) -> bytes:
    """`size` bytes of deterministic Python-like source."""
    rng = random.Random(seed)
    w = _TextWords(rng)
    lines = [
        lambda: f"def {_ident(rng, word=w)}(self, {_ident(rng, word=w)}, {_ident(rng, word=w)}={rng.randint(0, 99)}):",
        lambda: f"    {_ident(rng, word=w)} = self.{_ident(rng, word=w)}.{_ident(rng, word=w)}({_ident(rng, word=w)}, {_ident(rng, word=w)})",
        lambda: f"    return {_ident(rng, word=w)} + {_ident(rng, word=w)} * {rng.randint(1, 999)}",
        lambda: f"    # {_comment(rng, w)}",
        lambda: f"import {_ident(rng, 1, word=w)}",
        lambda: f"from {_ident(rng, 1, word=w)}.{_ident(rng, 1, word=w)} import {_camel(rng, word=w)}, {_ident(rng, word=w)}",
        lambda: f"        if {_ident(rng, word=w)} is not None and {_ident(rng, word=w)} > {rng.randint(0, 9)}:",
        lambda: f"        self.{_ident(rng, word=w)} = \"{_ident(rng, word=w)}-{rng.randint(0, 99999)}\"",
        lambda: f"            raise {_camel(rng, word=w)}Error(f\"{_comment(rng, w)} {{{_ident(rng, word=w)}}}\")",
        lambda: f"class {_camel(rng, word=w)}({_camel(rng, word=w)}):",
        lambda: f"    {_ident(rng, word=w)}[{rng.randint(0, 9)}] = {{'{_ident(rng, word=w)}': {rng.random():.4f}}}",
        lambda: f"        logger.{rng.choice(('debug', 'info', 'warning'))}(\"{_comment(rng, w)}: %s\", {_ident(rng, word=w)})",
        lambda: f"    {_ident(rng, word=w).upper()} = {rng.randint(0, 10000)}",
        lambda: f"        {_ident(rng, 2, word=w)} = '{_ident(rng, word=w)}'",
        lambda: "",
    ]
    out, total = [], 0
    while total < size:
        line = rng.choice(lines)()
        out.append(line)
        total += len(line) + 1
    return ("\n".join(out) + "\n").encode("utf-8")[:size]


SHAPES = [  # led by a literal (6), by \b (5), by a class (3), case-insensitive (2), as scanner rules are
    lambda rng: rf"\b{_ident(rng, 2)}\s*\(",
    lambda rng: rf"self\.{_ident(rng, 1)}\.{_ident(rng, 2)}\(",
    lambda rng: rf"\bimport\s+{_ident(rng, 1)}\b",
    lambda rng: rf"from\s+{_ident(rng, 1)}\.[a-z_]+\s+import\s+{_camel(rng)}\b",
    lambda rng: rf"self\.{_ident(rng, 2)}\s*=\s*\"[^\"\n]+\"",
    lambda rng: rf"\b{_ident(rng, 1)}_[a-z]+_{_ident(rng, 1)}\s*=",
    lambda rng: rf"def\s+{_ident(rng, 1)}_[a-z_]+\([^)\n]*\)",
    lambda rng: rf"\"{_ident(rng, 1)}-\d{{3,5}}\"",
    lambda rng: rf"[A-Z][a-z]+{rng.choice(WORDS).title()}Error\b",
    lambda rng: rf"#[^\n]*\b{rng.choice(WORDS)}\s+{rng.choice(WORDS)}\b",
    lambda rng: rf"\b{_ident(rng, 2)}\[\d\]\s*=",
    lambda rng: rf"[A-Z_]+_{rng.choice(WORDS).upper()}\s*=\s*\d+",
    lambda rng: rf"(?i)logger\.(?:debug|info|warning)\(\"[^\"\n]*\b{rng.choice(WORDS)}\b",
    lambda rng: rf"(?i)\b{rng.choice(WORDS)}[_-]?{rng.choice(WORDS)}\s*[:=]\s*['\"][^'\"\n]{{4,}}['\"]",
    lambda rng: rf"'{_ident(rng, 1)}_[a-z]+':\s*0\.\d+",
    lambda rng: rf"\b[a-z]+_{rng.choice(WORDS)}\(",
]


def patterns(n: int, seed: int = 7) -> list[str]:
    """`n` distinct deterministic literal+class patterns."""
    rng = random.Random(seed)
    out: list[str] = []
    seen: set[str] = set()
    while len(out) < n:
        p = rng.choice(SHAPES)(rng)
        if p not in seen:
            seen.add(p)
            out.append(p)
    return out


def re_loop(pats: list[str], names: list[str], data: bytes) -> list[PatternMatch]:
    """The baseline: one `re.finditer` per pattern, same match objects, same order."""
    out = []
    for i, p in enumerate(pats):
        for m in re.compile(p.encode()).finditer(data):
            out.append(PatternMatch(i, p, m.start(), m.end(), names[i]))
    out.sort(key=lambda m: (m.start, m.pattern_index))
    return out


def stdlib_text(size: int) -> bytes:
    """The first `size` bytes of this interpreter's standard-library sources, in path order.

    Real code as a second corpus; its bytes differ between Python builds, so
    its figures are for comparison, and the synthetic corpus is the reference.
    """
    root = Path(sysconfig.get_paths()["stdlib"])
    out, total = [], 0
    for path in sorted(root.rglob("*.py")):
        if "site-packages" in path.parts:
            continue
        data = path.read_bytes()
        out.append(data)
        total += len(data)
        if total >= size:
            break
    return b"".join(out)[:size]


@pytest.fixture(scope="module")
def text() -> bytes:
    return source_text(TEXT_BYTES)


@pytest.fixture(scope="module")
def corpora(text) -> dict[str, bytes]:
    return {"synthetic": text, "stdlib": stdlib_text(TEXT_BYTES)}


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("bench_patterns")


@pytest.fixture(scope="module")
def manager(cache_dir):
    return PatternSetManager(cache_dir)


def _definition(n: int) -> dict:
    return {"id": f"pat:bench-{n}", "description": f"{n} generated patterns", "patterns": patterns(n)}


@pytest.mark.parametrize("corpus", ["synthetic", "stdlib"])
@pytest.mark.parametrize("n", SET_SIZES)
def test_scan_vs_re(benchmark, manager, corpora, n, corpus):
    text = corpora[corpus]
    ps = manager.load(_definition(n))
    matches = benchmark.pedantic(manager.scan, args=(ps.id, text), rounds=3, iterations=1, warmup_rounds=1)
    t0 = time.perf_counter()
    expected = re_loop(ps.patterns, ps.names, text)
    re_s = time.perf_counter() - t0
    assert matches == expected  # same matches, same order, same objects (by value)
    scan_s = benchmark.stats.stats.min
    benchmark.extra_info.update({
        "corpus": corpus, "patterns": n, "bytes": len(text), "matches": len(matches), "scan_mb_per_s": len(text) / scan_s / 1e6,
        "re_loop_s": re_s, "re_mb_per_s": len(text) / re_s / 1e6, "ratio_vs_re": re_s / scan_s})


@pytest.mark.parametrize("n", SET_SIZES)
def test_compile(benchmark, n):
    nocache = PatternSetManager(None, builtins=False)
    definition = _definition(n)
    benchmark.pedantic(nocache.load, args=(definition,), rounds=3, iterations=1)
    benchmark.extra_info.update({"patterns": n, "compiled": nocache.stats.compiled})


@pytest.mark.parametrize("n", SET_SIZES)
def test_cached_load(benchmark, cache_dir, n):
    PatternSetManager(cache_dir, builtins=False).load(_definition(n))  # make sure the file exists
    cached = PatternSetManager(cache_dir, builtins=False)
    definition = _definition(n)
    benchmark.pedantic(cached.load, args=(definition,), rounds=5, iterations=1)
    assert cached.stats.compiled == 0 and cached.stats.cache_hits == 5
    benchmark.extra_info.update({"patterns": n})


@pytest.mark.parametrize("set_id", ["pat:security-smells", "pat:secrets"])
def test_scan_builtin(benchmark, manager, text, set_id):
    ps = manager.get(set_id)
    matches = benchmark.pedantic(manager.scan, args=(set_id, text), rounds=3, iterations=1, warmup_rounds=1)
    cs = manager.compiled(set_id)
    t0 = time.perf_counter()
    expected = re_loop(ps.patterns, ps.names, text)
    if cs.allow:  # the set's allow-list (placeholders, code expressions) vetoes matches in the scan too
        expected = [m for m in expected
                    if not cs.allow.vetoed(m.pattern_index, text, *cs.value_span(m.pattern_index, text, m.start, m.end))]
    re_s = time.perf_counter() - t0
    assert matches == expected
    scan_s = benchmark.stats.stats.min
    benchmark.extra_info.update({"patterns": len(ps.patterns), "matches": len(matches),
                                 "scan_mb_per_s": len(text) / scan_s / 1e6, "ratio_vs_re": re_s / scan_s})


def test_redact_memory(benchmark, manager, text):
    """One write-path redaction of a 4 KB memory with two secrets in it."""
    redactor = Redactor(manager)
    body = (text[:2000].decode() + '\npassword = "hunter22"\nkey AKIAIOSFODNN7EXAMPLE\n' + text[2000:4000].decode())
    result = benchmark(redactor.redact, body)
    assert {h.name for h in result.hits} == {"password-assignment", "aws-access-key"}
