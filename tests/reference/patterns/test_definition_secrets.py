"""A pattern set given by a caller leaves no secret on disk: free text redacted, keys and regexes refused."""
from __future__ import annotations

import pytest

from reference.patterns import PatternError, PatternSetManager
from tests.reference.mcp_server.conftest import open_server
from tests.reference.secret_samples import PLANT_JWT, all_bytes

AWS = "AKIAPLANTEDPATDEF001"  # an aws-access-key shape: AKIA + 16
DESC_SECRET = "PLANTEDdescpw42"
TAG_SECRET = "PLANTEDtagpw42"


def definition(**over):
    d = {"id": "pat:mine", "patterns": [r"TODO\(\w+\)"], "names": ["todo"],
         "description": f"todo markers; password={DESC_SECRET}", "tags": ["hygiene", f"token={TAG_SECRET}"]}
    d.update(over)
    return d


@pytest.fixture
def manager(tmp_path):
    return PatternSetManager(tmp_path / "cache")


def test_description_and_tags_are_redacted(manager):
    ps = manager.load(definition())
    assert DESC_SECRET not in ps.description and "[REDACTED:unquoted-assignment]" in ps.description
    assert ps.tags == ["hygiene", "token=[REDACTED:unquoted-assignment]"]
    assert [m.name for m in manager.scan("pat:mine", b"TODO(ana)")] == ["todo"]


@pytest.mark.parametrize("over,field", [
    ({"patterns": [r"TODO", AWS]}, "patterns[1]"),
    ({"patterns": [r"TODO", "password=hunter2xyz"]}, "patterns[1]"),
    ({"names": ["ghp_abcdefghijklmnopqrstuvwxyz0123456789"]}, "names[0]"),
    ({"names": ["kv"], "patterns": [r"token=\S+"],
      "allow": [{"names": ["kv"], "patterns": ["token=s3cretPLANTED9"]}]}, "allow[0].patterns[0]"),
])
def test_a_key_or_regex_holding_a_secret_is_refused_without_echoing_it(manager, over, field):
    with pytest.raises(PatternError, match=r"contains a secret") as err:
        manager.load(definition(**over))
    text = str(err.value)
    assert field in text and "hunter2xyz" not in text and AWS not in text and "s3cretPLANTED9" not in text
    assert "pat:mine" not in manager


def test_an_id_holding_a_secret_is_refused(manager):
    with pytest.raises(PatternError, match="carries a secret") as err:
        manager.load(definition(id="pat:ghp_abcdefghijklmnopqrstuvwxyz0123456789"))
    assert "abcdefghijklmnop" not in str(err.value)


def test_shape_patterns_and_the_builtin_sets_still_load(manager):
    from reference.patterns.pattern_set import read_definition_file
    from reference.patterns.pattern_set_manager import BUILTIN_DIR

    manager.load(definition(patterns=[r"AKIA[0-9A-Z]{16}", r"password\s*=\s*\S+"], names=["aws", "pw"]))
    for file in sorted(BUILTIN_DIR.glob("*.json")):  # their regexes are shapes, never values
        d = read_definition_file(file)
        assert manager.screened(d)["patterns"] == d["patterns"]


def test_pattern_load_leaves_no_secret_in_the_data_folder(tmp_path):
    """Through the MCP tool: the persisted definition and compiled cache hold no planted value."""
    ctx, mcp = open_server(tmp_path / "data")
    try:
        info = mcp.call("pattern_load", pattern_set_id="pat:mine", patterns=[r"TODO\(\w+\)"],
                        description=f"password={DESC_SECRET}", tags=[f"token={TAG_SECRET}"])
        assert DESC_SECRET not in info["description"]
        err = mcp.error("pattern_load", pattern_set_id="pat:leak", patterns=[AWS])
        assert "contains a secret" in err and AWS not in err
        assert mcp.call("pattern_list") and "pat:leak" not in {s["id"] for s in mcp.call("pattern_list")}
    finally:
        mcp.close()
        ctx.close()
    data = all_bytes(tmp_path / "data")
    assert list((tmp_path / "data" / "pattern_sets").glob("*.json")), "the test must look at the stored set"
    for secret in (DESC_SECRET, TAG_SECRET, AWS):
        assert secret.encode() not in data, secret


@pytest.mark.parametrize("regex", [
    PLANT_JWT.replace(".", r"\."),                  # a JWT with its dots escaped: still the JWT's bytes
    r"password\=PLANTEDhunter2",
    r"AKIAPLANTED0000XYZ98\b",
])
def test_escaped_punctuation_is_screened_as_the_literal_it_spells(manager, regex):
    with pytest.raises(PatternError, match="contains a secret"):
        manager.load(definition(patterns=[regex]))
    assert "pat:mine" not in manager


def test_literal_view_marks_escapes_of_classes_as_operators():
    from reference.patterns.definition_secrets import literal_view

    view, operator = literal_view(r"a\.b\Sc*")
    assert view == r"a.b\Sc*"
    assert operator == [False, False, False, True, True, False, True]
