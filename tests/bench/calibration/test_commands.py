"""Each stage answers `python3 -m bench.calibration[.<stage>] --help` with its own options."""
from __future__ import annotations

import importlib

import pytest


@pytest.mark.parametrize("module, options", [
    ("bench.calibration.__main__", ("--compare", "--lexical-data", "--skip-lexical", "--lane")),
    ("bench.calibration.knowledge", ("--compare",)),
    ("bench.calibration.lexical", ("--data", "--files-only")),
    ("bench.calibration.files", ("--data",)),
    ("bench.calibration.enrichment", ("--data",)),
    ("bench.calibration.lane", ("--project",)),
    ("bench.calibration.transfer", ("--data",)),
    ("bench.calibration.notes", ("--data",)),
    ("bench.calibration.oracle_search", ()),
])
def test_each_stage_names_its_command_and_options(module, options, capsys):
    with pytest.raises(SystemExit) as done:
        importlib.import_module(module).main(["--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    prog = "python3 -m " + module.removesuffix(".__main__")
    assert text.startswith(f"usage: {prog} ") and all(o in text for o in options)
