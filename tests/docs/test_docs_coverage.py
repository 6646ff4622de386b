"""Every command, option, MCP tool and scenario step is documented (after sqlite-utils' test_docs.py).

Where each kind must be documented:
- each command and subcommand: named as `codemem-bench CMD` in the Commands table of README.md;
- each option of a command: in bench/cli/README.md, inside the section headed `## codemem-bench CMD`
  (in backticks, e.g. `--out DIR`);
- each MCP tool the reference server registers: in backticks in reference/mcp_server/README.md (Tools);
- each scenario tool step and directive of the harness: in backticks in scenarios/README.md.
A failure lists everything missing at once, with the file and section it belongs in.
"""
from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from bench.cli.main import build_parser

ROOT = Path(__file__).resolve().parents[2]
CLI_README = "bench/cli/README.md"
SKIPPED_OPTIONS = {"-h", "--help", "--version"}   # added to every command by bench/cli/main.py, documented once


def read(rel: str) -> str:
    return (ROOT / rel).read_text(encoding="utf-8")


def code_names(text: str) -> set[str]:
    """Every name-like token in code: fenced blocks, and backtick spans (`name(args)`, `--opt VALUE` ...).

    A span may wrap onto the next line but not cross a blank line, so one stray backtick cannot shift
    the pairing of a whole file."""
    spans = re.findall(r"^```[^\n]*\n(.*?)^```", text, flags=re.M | re.S)
    prose = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    for paragraph in re.split(r"\n\s*\n", prose):
        spans += re.findall(r"`([^`]+)`", paragraph)
    return {name for span in spans for name in re.findall(r"--?[\w][\w-]*|[\w][\w.-]*", span)}


def sections(text: str) -> dict[str, str]:
    """`## heading` (backticks stripped) -> the text up to the next `## ` heading."""
    out, current = {}, None
    for line in text.splitlines():
        if line.startswith("## "):
            current = line[3:].replace("`", "").strip()
            out[current] = ""
        elif current is not None:
            out[current] += line + "\n"
    return out


def commands(parser: argparse.ArgumentParser, prefix: str = "codemem-bench") -> dict[str, list[str]]:
    """`codemem-bench CMD [SUB]` -> its long options (or short, if it has no long one), walking subparsers."""
    found: dict[str, list[str]] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                path = f"{prefix} {name}"
                found[path] = [_option_name(a) for a in sub._actions if a.option_strings
                               and not set(a.option_strings) & SKIPPED_OPTIONS]
                found.update(commands(sub, path))
    return found


def _option_name(action: argparse.Action) -> str:
    longs = [s for s in action.option_strings if s.startswith("--")]
    return (longs or action.option_strings)[0]


def test_commands_are_in_the_readme_and_their_options_in_the_cli_reference():
    readme, cli_sections = read("README.md"), sections(read(CLI_README))
    missing = []
    for command, options in commands(build_parser()).items():
        if command not in readme:
            missing.append(f"README.md (## Commands table): `{command}` is not mentioned")
        if command not in cli_sections:
            missing.append(f"{CLI_README}: no section `## {command}` (its options: {', '.join(options) or 'none'})")
            continue
        documented = code_names(cli_sections[command])
        absent = [o for o in options if o not in documented]
        if absent:
            missing.append(f"{CLI_README} section `## {command}`: options not documented: {', '.join(absent)}")
    assert not missing, "undocumented:\n" + "\n".join(missing)


def test_every_mcp_tool_of_the_reference_server_is_documented(tmp_path):
    from reference.mcp_server.context import ServerConfig, ServerContext
    from reference.mcp_server.server import register_tools
    from reference.mcp_server.tools import TOOL_MODULES
    ctx = ServerContext(ServerConfig(tmp_path / "data", clock="logical:1736935800"))   # logical: harness tools too
    try:
        names = register_tools(ctx, TOOL_MODULES).names()   # every module, whatever the default profile
    finally:
        ctx.close()
    assert len(names) > 10, names
    documented = code_names(read("reference/mcp_server/README.md"))
    absent = [n for n in names if n not in documented]
    assert not absent, ("reference/mcp_server/README.md (## Tools table): tools not documented: "
                        + ", ".join(absent))


@pytest.mark.parametrize("kind", ["tool", "directive"])
def test_every_scenario_step_and_directive_is_documented(kind):
    from bench.steps import STEPS
    names = sorted(n for n, spec in STEPS.items() if spec.kind == kind)
    assert names, kind
    documented = code_names(read("scenarios/README.md"))
    absent = [n for n in names if n not in documented]
    assert not absent, (f"scenarios/README.md (## Steps / ## Tools known to the harness): {kind}s not "
                        f"documented: " + ", ".join(absent))


def test_the_checks_find_what_is_missing():
    """The helpers the tests rely on: a name outside backticks or in another section does not count."""
    text = "## codemem-bench run\n`--out DIR`, and --repeat in prose\n## codemem-bench gate\n`--latency SPEC|off`\n"
    got = sections(text)
    assert set(got) == {"codemem-bench run", "codemem-bench gate"}
    assert "--out" in code_names(got["codemem-bench run"]) and "--repeat" not in code_names(got["codemem-bench run"])
    assert "--latency" not in code_names(got["codemem-bench run"])
    assert {"memory-lane_store", "graph_get_edge"} <= code_names("`memory-lane_store(x)`, `graph_get_edge*(src)`")
    assert "memory_search" not in code_names("`memory_search_structured(query)`")
    assert "b" in code_names("stray ` here\n\n`a`, `b`\n\n```bash\nrun --fenced\n```\n")
    assert "--fenced" in code_names("```bash\nrun --fenced\n```\n") and "here" not in code_names("stray ` here")
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers().add_parser("x")
    sub.add_argument("--flag")
    sub.add_subparsers().add_parser("y").add_argument("-n")
    assert commands(parser, "tool") == {"tool x": ["--flag"], "tool x y": ["-n"]}
