"""Every scenario, command and option a doc names exists, and the README's figures are its run files'.

The other direction of test_docs_coverage.py: that test fails when something that exists is not
documented; this one fails when a doc names something that does not exist (a renamed scenario, a
removed option), or when a figure of the README disagrees with the committed file it comes from.

Docs: every Markdown file git tracks (README.md, docs/, each folder's README.md, ...). Read in them:
- commands and options: each `codemem-bench CMD ...` in a code span or a fenced block: CMD must be a
  command, each `--option` after it one of CMD's (a `|`, `&&` or `;` ends the command);
- scenarios: the scenario names of `codemem-bench run NAME...`; the code spans following the word
  "scenario(s)"; the first column of a table headed `scenario`; any code span shaped like a history
  scenario (`sqlite-utils-blame`, `<data>-files`). A placeholder (`<data>-blame`) must match at least one
  scenario; names of generated tiers count when a suite lists them.
"""
from __future__ import annotations

import argparse
import re
import subprocess
from pathlib import Path

import pytest

from bench.cli.main import build_parser

ROOT = Path(__file__).resolve().parents[2]
DATA = ("sqlite-utils", "httpx", "attrs")
HISTORY = re.compile(r"(?:sqlite-utils|httpx|attrs|<data>)-[a-z][a-z-]*")


def docs() -> dict[str, str]:
    files = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, timeout=30).stdout
    paths = [p for p in files.split() if p] or [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*.md")]
    return {p: (ROOT / p).read_text(encoding="utf-8") for p in paths if (ROOT / p).is_file()}


def code_spans(text: str) -> list[tuple[int, str]]:
    """(line number, text) of each fenced-block line and each backtick span (not across a blank line)."""
    out = []
    fenced = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)
    for m in fenced.finditer(text):
        first = text.count("\n", 0, m.start(1)) + 1
        out += [(first + i, line) for i, line in enumerate(m.group(1).splitlines())]
    prose = fenced.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    for m in re.finditer(r"`([^`\n]+(?:\n[^`\n]+)*)`", prose):
        if "\n\n" not in m.group(1):
            out.append((prose.count("\n", 0, m.start()) + 1, m.group(1)))
    return out


def parser_table(parser: argparse.ArgumentParser) -> dict[str, set[str]]:
    """command -> every option string it takes (with -h/--help/--version)."""
    out = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out[name] = {s for a in sub._actions for s in a.option_strings}
    return out


def command_uses(text: str) -> list[tuple[int, str, list[str], list[str]]]:
    """(line, command, positionals, options) of each `codemem-bench CMD ...` in the code of `text`."""
    found = []
    for line, span in code_spans(text):
        for part in re.split(r"\\?\||&&|;", span):
            m = re.search(r"(?:^|\s)codemem-bench\s+([^\s\[\]]+)(.*)", part)
            if not m or m.group(1).startswith("-") or not re.fullmatch(r"[a-z][a-z-]*", m.group(1)):
                continue   # `codemem-bench --version`, `codemem-bench COMMAND`: not a command name
            words = m.group(2).replace("[", " ").replace("]", " ").replace("=", " ").split()
            options = [w for w in words if re.fullmatch(r"--?[A-Za-z][\w-]*", w)]
            positionals = []
            for w in words:
                if w.startswith("-") or w.startswith("#"):
                    break
                positionals.append(w)
            found.append((line, m.group(1), positionals, options))
    return found


def scenario_mentions(text: str) -> list[tuple[int, str]]:
    """(line, name) of each scenario a doc names (module docstring)."""
    out = []
    for line, cmd, positionals, _ in command_uses(text):
        if cmd == "run":
            out += [(line, p) for p in positionals if re.fullmatch(r"[a-z][a-z0-9-]*", p)]
    prose = re.sub(r"^```.*?^```", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.M | re.S)
    for m in re.finditer(r"\bscenarios? ((?:`[^`]+`(?:,| and| or)?\s*)+)", prose):
        first = prose.count("\n", 0, m.start()) + 1
        out += [(first, n) for n in re.findall(r"`([^`]+)`", m.group(1))]
    table_head = None
    for i, row in enumerate(text.splitlines(), start=1):
        cells = [c.strip() for c in row.strip().strip("|").split("|")] if row.lstrip().startswith("|") else None
        if cells is None:
            table_head = None
        elif table_head is None:
            table_head = cells[0].lower()
        elif table_head == "scenario" and not set(cells[0]) <= set("-: "):
            # names in parentheses qualify a placeholder: `<data>-blame` (`sqlite-utils`, `httpx`, `attrs`)
            out += [(i, n) for n in re.findall(r"`([^`]+)`", re.sub(r"\([^)]*\)", "", cells[0]))]
    for line, span in code_spans(text):
        if HISTORY.fullmatch(span.strip()):
            out.append((line, span.strip()))
    return out


def known_scenarios() -> set[str]:
    from bench.scenario.suites import scenario_names, suites
    return set(scenario_names()) | {n for names in suites().values() for n in names}


def is_known(name: str, known: set[str]) -> bool:
    if "<data>" in name:
        return any(name.replace("<data>", d) in known for d in DATA)
    return name in known


def test_commands_and_options_named_in_the_docs_exist():
    table = parser_table(build_parser())
    wrong = []
    for path, text in docs().items():
        for line, cmd, _, options in command_uses(text):
            if cmd not in table:
                wrong.append(f"{path}:{line}: `codemem-bench {cmd}`: no such command (commands: {', '.join(table)})")
                continue
            wrong += [f"{path}:{line}: `codemem-bench {cmd} {o}`: {cmd} has no option {o}"
                      for o in options if o not in table[cmd]]
    assert not wrong, "docs name what does not exist:\n" + "\n".join(wrong)


def test_scenarios_named_in_the_docs_exist():
    known = known_scenarios()
    wrong = [f"{path}:{line}: scenario `{name}` does not exist" for path, text in docs().items()
             for line, name in scenario_mentions(text) if not is_known(name, known)]
    assert not wrong, "docs name scenarios that do not exist:\n" + "\n".join(sorted(set(wrong)))


def test_step_counts_in_the_readme_scenario_table_are_the_scenarios():
    """`a 53-step session` in the README's suite table: the scenario file's step count."""
    from bench.scenario.suites import resolve
    text = docs()["README.md"]
    claims = re.findall(r"^\| `([a-z][a-z0-9-]*)` \|[^\n]*?\b(\d[\d,]*)-step\b", text, re.M)
    assert claims, "the README's scenario table states no step count"
    for name, steps in claims:
        assert len(resolve([name])[0].steps) == int(steps.replace(",", "")), (name, steps)


def test_the_readme_figures_are_those_of_their_run_files():
    from bench.report.readme_figures import differences
    diffs = differences(docs()["README.md"])
    assert not diffs, "\n".join(diffs)


def test_the_readme_links_the_backend_guide():
    assert "(bench/backends/README.md)" in docs()["README.md"]


@pytest.mark.parametrize("text, expected", [
    ("`codemem-bench run smoke --no-such-option`", [("run", ["smoke"], ["--no-such-option"])]),
    ("```bash\npip install -e . && codemem-bench nosuch --x\n```\n", [("nosuch", [], ["--x"])]),
    ("`codemem-bench gate REPORT [--latency SPEC\\|off] [--json FILE]`", [("gate", ["REPORT"], ["--latency"])]),
    ("`codemem-bench COMMAND [OPTIONS]` and `codemem-bench/report`", []),
])
def test_command_uses_are_read_from_code(text, expected):
    assert [(c, p, o) for _, c, p, o in command_uses(text)] == expected


def test_the_checks_find_scenarios_that_do_not_exist():
    text = ("Details: scenarios `project-branches`, `project-dedup` and `smoke`.\n\n"
            "| scenario | seed |\n|---|---|\n| `no-such` | 000 |\n\n`httpx-nosuch` and `<data>-blame`\n")
    names = [n for _, n in scenario_mentions(text)]
    known = known_scenarios()
    assert [n for n in names if not is_known(n, known)] == ["project-branches", "project-dedup", "no-such",
                                                             "httpx-nosuch"]
    assert "smoke" in names and "<data>-blame" in names
