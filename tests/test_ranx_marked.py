"""Every test that uses ranx is marked `ranx`, so the default run never pays ranx's numba compile.

A test uses ranx when its body names `ranx` (`ranx.evaluate`, `pytest.importorskip("ranx")`); it is marked
when it, or its module (`pytestmark`), carries `pytest.mark.ranx`. Read from the source with `ast`: nothing
is imported, so ranx is not loaded to check.
"""
from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _marks_ranx(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr == "ranx" and isinstance(n.value, ast.Attribute)
               and n.value.attr == "mark" for n in ast.walk(node))


def _uses_ranx(fn: ast.AST) -> bool:
    for n in ast.walk(fn):
        if isinstance(n, ast.Name) and n.id == "ranx":
            return True
        if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "importorskip" \
                and any(isinstance(a, ast.Constant) and a.value == "ranx" for a in n.args):
            return True
    return False


def unmarked(source: str) -> list[str]:
    """Names of the test functions in `source` that use ranx without the `ranx` mark."""
    tree = ast.parse(source)
    module_marked = any(isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "pytestmark" for t in n.targets)
                        and _marks_ranx(n.value) for n in tree.body)
    out = []
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test"):
            body = ast.Module(body=n.body, type_ignores=[])
            if _uses_ranx(body) and not module_marked and not any(_marks_ranx(d) for d in n.decorator_list):
                out.append(n.name)
    return out


def test_every_test_that_uses_ranx_is_marked_ranx():
    missing = [f"{p.relative_to(TESTS.parent)}::{name}" for p in sorted(TESTS.rglob("test_*.py"))
               for name in unmarked(p.read_text(encoding="utf-8"))]
    assert not missing, "mark these @pytest.mark.ranx (tests/conftest.py):\n" + "\n".join(missing)


def test_the_check_tells_marked_from_unmarked():
    plain = "def test_a():\n    ranx = pytest.importorskip('ranx')\n\ndef test_b():\n    assert 1\n"
    assert unmarked(plain) == ["test_a"]
    assert unmarked("import pytest\n@pytest.mark.ranx\n" + plain) == []
    assert unmarked("import pytest\npytestmark = pytest.mark.ranx\n" + plain) == []
    assert unmarked("import ranx\ndef test_c(x):\n    ranx.evaluate(x)\n") == ["test_c"]
