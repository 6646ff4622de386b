"""Definitions from JSON and TOML files, and folders of them."""
from __future__ import annotations

import json

import pytest

from reference.patterns import BUILTIN_DIR, PatternError, PatternMatch, PatternSetManager

TOML = '''
id = "pat:style"
description = "style checks"
patterns = ['print\\(', '\\bTODO\\b']
names = ["print-call", "todo"]
tags = ["style"]
flags = ["caseless"]
'''


def write_json(path, doc):
    path.write_text(json.dumps(doc), encoding="utf-8")


@pytest.fixture
def manager(tmp_path):
    return PatternSetManager(tmp_path / "data", builtins=False)


def test_toml_definition(manager, tmp_path):
    path = tmp_path / "style.toml"
    path.write_text(TOML, encoding="utf-8")
    ps = manager.load_file(path)
    assert (ps.id, ps.description, ps.names, ps.tags, ps.flags) == (
        "pat:style", "style checks", ["print-call", "todo"], ["style"], ["caseless"])
    assert ps.patterns == [r"print\(", r"\bTODO\b"]
    assert manager.scan("pat:style", b"PRINT(x) # todo") == [
        PatternMatch(0, r"print\(", 0, 6, "print-call"), PatternMatch(1, r"\bTODO\b", 11, 15, "todo")]


def test_json_definition(manager, tmp_path):
    path = tmp_path / "a.json"
    write_json(path, {"id": "pat:a", "patterns": ["abc"]})
    assert manager.load_file(path).id == "pat:a"


def test_load_dir_loads_json_and_toml_and_ignores_other_files(manager, tmp_path):
    folder = tmp_path / "defs"
    folder.mkdir()
    (folder / "style.toml").write_text(TOML, encoding="utf-8")
    write_json(folder / "a.json", {"id": "pat:a", "patterns": ["abc"]})
    (folder / "README.md").write_text("# not a definition", encoding="utf-8")
    loaded = manager.load_dir(folder)
    assert [ps.id for ps in loaded] == ["pat:a", "pat:style"]
    assert [s["id"] for s in manager.list()] == ["pat:a", "pat:style"]


def test_load_dir_is_all_or_nothing(manager, tmp_path):
    folder = tmp_path / "defs"
    folder.mkdir()
    write_json(folder / "a.json", {"id": "pat:a", "patterns": ["abc"]})
    write_json(folder / "b.json", {"id": "pat:b", "patterns": ["ok", "x(?=y)"]})
    with pytest.raises(PatternError) as err:
        manager.load_dir(folder)
    msg = str(err.value)
    assert "b.json" in msg and "pattern #1" in msg and "look-ahead" in msg
    assert manager.list() == []


def test_duplicate_ids_in_a_folder(manager, tmp_path):
    folder = tmp_path / "defs"
    folder.mkdir()
    write_json(folder / "a.json", {"id": "pat:a", "patterns": ["abc"]})
    write_json(folder / "b.json", {"id": "pat:a", "patterns": ["def"]})
    with pytest.raises(PatternError, match="also defined in"):
        manager.load_dir(folder)
    assert manager.list() == []


@pytest.mark.parametrize("name,content,fragment", [
    ("bad.json", "{not json", "cannot parse"),
    ("bad.toml", "id = ", "cannot parse"),
    ("bad.json", "[1, 2]", "mapping at top level"),
    ("bad.yaml", "id: x", "must end in .json or .toml"),
    ("bad.json", '{"id": "pat:q", "patterns": ["a"], "extra": 1}', "unknown field(s) 'extra'"),
])
def test_bad_files_name_the_file(manager, tmp_path, name, content, fragment):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(PatternError) as err:
        manager.load_file(path)
    assert str(path) in str(err.value) and fragment in str(err.value)


def test_missing_folder(manager, tmp_path):
    with pytest.raises(PatternError, match="not a folder"):
        manager.load_dir(tmp_path / "nope")


def test_builtin_files_are_valid_definitions():
    files = sorted(p.name for p in BUILTIN_DIR.iterdir())
    assert files == ["README.md", "secrets.json", "security-smells.json"]
    for name in ("secrets.json", "security-smells.json"):
        doc = json.loads((BUILTIN_DIR / name).read_text(encoding="utf-8"))
        assert len(doc["names"]) == len(doc["patterns"]) == len(set(doc["names"]))
