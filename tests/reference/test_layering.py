"""`reference/` keeps its layers: nothing imports `bench`, and the lower layers never import the higher ones.

Lower: the tracker, the blob, the vectors (`vectors/`) and the keys. Higher: the
knowledge layer, Memory Lane and project memory. The check reads each module's imports from
its AST (module level and inside functions), so a lazy import inside a function counts too.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

REFERENCE = Path(__file__).resolve().parents[2] / "reference"
LOWER = sorted([*REFERENCE.joinpath("tracker").glob("*.py"), *REFERENCE.joinpath("blob").glob("*.py"),
                REFERENCE / "keys.py", *REFERENCE.joinpath("vectors").glob("*.py")])
HIGHER = ("reference.knowledge", "reference.lane", "reference.project")


def imported(source: str) -> list[tuple[int, str]]:
    """(line, module) of every import in `source`, relative imports left out (the package has none)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out += [(node.lineno, node.module)] + [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
    return out


def _under(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def test_the_lower_layers_exist():
    assert REFERENCE.joinpath("tracker", "migrations.py") in LOWER and REFERENCE / "vectors" / "cache.py" in LOWER


def test_lower_layers_never_import_higher_ones():
    found = [f"{path.relative_to(REFERENCE)}:{line}: {mod}" for path in LOWER
             for line, mod in imported(path.read_text()) if _under(mod, HIGHER)]
    assert not found, "\n".join(found)


def test_reference_never_imports_bench():
    found = [f"{path.relative_to(REFERENCE)}:{line}: {mod}" for path in sorted(REFERENCE.rglob("*.py"))
             for line, mod in imported(path.read_text()) if _under(mod, ("bench",))]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("src", [
    "from reference.knowledge.schema import knowledge_schema",
    "import reference.lane.schema",
    "def f():\n    from reference.project import schema\n",
    "from reference import knowledge",
])
def test_the_check_sees_an_import_of_a_higher_layer(src):
    assert any(_under(mod, HIGHER) for _, mod in imported(src))


def test_the_check_lets_lower_imports_through():
    assert not any(_under(mod, HIGHER) for _, mod in imported("from reference.keys import hash64\nimport numpy"))


def test_every_schema_version_has_its_step_and_a_missing_one_is_named(monkeypatch):
    from reference.schema_steps import STEPS
    from reference.tracker import migrations
    assert migrations.steps() == list(STEPS) and len(STEPS) == migrations.LATEST
    monkeypatch.delitem(migrations._STEPS, 4)
    with pytest.raises(migrations.StoreError, match=r"schema steps \[4\] are not registered"):
        migrations.steps()


def test_a_version_cannot_get_a_second_step():
    from reference.tracker import migrations
    with pytest.raises(ValueError, match="schema step 3 is already knowledge_schema"):
        migrations.register_step(3, lambda conn: None)
    with pytest.raises(ValueError, match="versions run from 1 to"):
        migrations.register_step(migrations.LATEST + 1, lambda conn: None)
