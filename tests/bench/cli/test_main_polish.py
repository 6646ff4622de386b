"""The top-level CLI: --version everywhere, a help text about the tool, a closed pipe is not an error."""
import subprocess
import sys

import pytest

from bench.cli.main import COMMANDS, build_parser, package_version


def test_version_on_the_tool_and_on_every_command(capsys):
    for argv in [["--version"]] + [[m.NAME, "--version"] for m in COMMANDS]:
        with pytest.raises(SystemExit) as done:
            build_parser().parse_args(argv)
        assert done.value.code == 0
        assert capsys.readouterr().out.strip() == f"codemem-bench {package_version()}"


def test_top_level_help_describes_the_tool_not_the_module():
    text = build_parser().format_help()
    assert "coding agents" in text and "builds the parser" not in text
    assert all(m.NAME in text for m in COMMANDS)


def test_piping_into_a_closed_reader_exits_quietly():
    # `backends --matrix` prints enough lines that the reader is gone before the writer finishes
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from bench.cli.main import main; "
                             "sys.argv[0] = 'x'; [main(['backends', '--matrix']) for _ in range(50)]"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0, err
    assert "Broken pipe" not in err and "BrokenPipeError" not in err
