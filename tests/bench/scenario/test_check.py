"""`scenarios --check`: every file is validated and every bad one reported, with exit 2."""
from bench.cli.main import main
from bench.scenario.check import check_scenarios
from bench.scenario.suites import oracle_dir, scenarios_dir

HEADER = '{"scenario": "%s", "format": 1}\n'


def write_folder(root, files, suites='{"default": ["good"]}'):
    folder = root / "scenarios"
    folder.mkdir()
    for name, text in files.items():
        (folder / f"{name}.jsonl").write_text(text)
    (folder / "suites.json").write_text(suites)
    (root / "oracle_data").mkdir()
    return folder


def test_every_bad_file_is_reported_not_only_the_first(tmp_path):
    folder = write_folder(tmp_path, {
        "good": HEADER % "good" + '{"directive": "advance_clock", "seconds": 5}\n',
        "a-bad": HEADER % "a-bad" + '{"tool": "memory_get", "args": {}}\n',
        "b-bad": HEADER % "b-bad" + "\n" + '{"tool": "no_such_tool"}\n',
        "c-bad": "not json\n",
    }, suites='{"default": ["good", "missing-one"]}')
    problems = check_scenarios(folder, tmp_path / "oracle_data")
    assert len(problems) == 4, problems
    assert problems[0].startswith(f"{folder / 'a-bad.jsonl'}:2: args.memory_id: ")
    assert problems[1].startswith(f"{folder / 'b-bad.jsonl'}:3: tool: unknown tool 'no_such_tool'")
    assert problems[2].startswith(f"{folder / 'c-bad.jsonl'}:1: not valid JSON")
    assert problems[3] == f"{folder / 'suites.json'}: default: unknown scenario 'missing-one'"


def test_cli_check_exits_2_listing_all_problems_and_0_when_valid(tmp_path, monkeypatch, capsys):
    write_folder(tmp_path, {"good": HEADER % "good", "bad1": HEADER % "bad1" + "[]\n", "bad2": "{}\n"})
    monkeypatch.setenv("CODEMEM_BENCH_HOME", str(tmp_path))
    assert main(["scenarios", "--check"]) == 2
    out = capsys.readouterr()
    assert "bad1.jsonl:2:" in out.err and "bad2.jsonl:1:" in out.err
    assert "3 scenario files checked: 2 problems" in out.out
    (tmp_path / "scenarios" / "bad1.jsonl").unlink()
    (tmp_path / "scenarios" / "bad2.jsonl").unlink()
    assert main(["scenarios", "--check"]) == 0
    assert "1 scenario files checked: all valid" in capsys.readouterr().out


def test_the_shipped_scenarios_pass_the_check(capsys):
    assert check_scenarios(scenarios_dir(), oracle_dir()) == []
    assert main(["scenarios", "--check"]) == 0


def test_a_missing_suites_file_is_a_problem(tmp_path):
    folder = write_folder(tmp_path, {"good": HEADER % "good"})
    (folder / "suites.json").unlink()
    assert check_scenarios(folder, tmp_path / "oracle_data") == [f"{folder / 'suites.json'}: missing (it names the suites)"]
