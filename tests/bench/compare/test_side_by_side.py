"""The side-by-side table of `compare`: one row per backend with score, nDCG, checks, p95, lost writes, surface."""
import json

from bench.cli.main import main


def test_compare_writes_a_side_by_side_table_with_the_census(tmp_path, capsys):
    out = tmp_path / "cmp"
    assert main(["compare", "smoke", "--backends", "reference,fts-baseline", "--agents", "2", "--out", str(out),
                 "--quiet"]) == 0
    table = (out / "side_by_side.md").read_text()
    lines = [line for line in table.splitlines() if line.startswith("| `")]
    assert [line.split("|")[1].strip() for line in lines] == ["`reference`", "`fts-baseline`"]
    head = table.splitlines()[0]
    assert "nDCG@10 smoke" in head and "lost / acknowledged writes (agents)" in head and "tools/list chars" in head
    ref = [c.strip() for c in lines[0].split("|")[1:-1]]
    saved = json.loads((out / "reference" / "report.json").read_text())
    # the retrieval figure leads, beside the report's score; then smoke's nDCG
    assert head.startswith("| backend | retrieval | score | ")
    assert ref[1] == f"{saved['score']['retrieval']:.2f}" == "98.00" and ref[2] == f"{saved['score']['value']:.2f}"
    assert ref[3] == "0.980"
    assert ref[6] == "0/40"     # 2 agents × 20 writes, none lost
    cmp = json.loads((out / "comparison.json").read_text())
    assert cmp["retrieval"] == {"reference": 98.0, "fts-baseline": saved_fts(out)}
    assert "Machine:" in table and "side by side" in capsys.readouterr().out


def saved_fts(out):
    return json.loads((out / "fts-baseline" / "report.json").read_text())["score"]["retrieval"]
