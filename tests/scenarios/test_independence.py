"""Scenario generators owe nothing to the reference store: no import of `reference`, no path into it.

A generator that imported `reference/` (or read a file under it) would take
its ground truth from the system it grades. This scans every generator's AST:
imports, `importlib.import_module`/`__import__` strings, and any string
literal (docstrings aside) that names `reference` as a path part or module.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

GENERATORS = Path(__file__).resolve().parents[2] / "scenarios" / "generators"
_PATH_PART = re.compile(r"(^|[/\\])reference([/\\]|$)|^reference\.")


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def violations(source: str, name: str = "<src>") -> list[str]:
    """Every place `source` imports or names `reference`, as `name:line: what`."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [f"{name}:{node.lineno}: import {a.name}" for a in node.names
                    if a.name.split(".")[0] == "reference"]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "reference":
            out.append(f"{name}:{node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if _PATH_PART.search(node.value.strip()):
                out.append(f"{name}:{node.lineno}: names reference: {node.value[:60]!r}")
    return out


def test_no_generator_imports_or_reads_reference():
    found = [v for path in sorted(GENERATORS.rglob("*.py"))
             for v in violations(path.read_text(), str(path.relative_to(GENERATORS)))]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("src", [
    "from reference.keys import hash64",
    "import reference.lane.taxonomy as t",
    "import importlib\nm = importlib.import_module('reference.keys')",
    "m = __import__('reference')",
    "from pathlib import Path\np = Path(__file__).parents[2] / 'reference' / 'patterns'",
    "open('reference/patterns/builtin/secrets.json')",
    "open('../../reference/lane/taxonomy.py')",
])
def test_the_scan_catches_each_way_in(src):
    assert violations(src)


@pytest.mark.parametrize("src", [
    '"""Reads nothing from reference/ (see its README)."""\nx = 1',
    "RELATIONS = ['references', 'calls']",
    "text = 'see the reference manual'",
])
def test_the_scan_allows_innocent_text(src):
    assert not violations(src)
