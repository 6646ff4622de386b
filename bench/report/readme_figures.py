"""The README's figures, written from committed run files so that they cannot go stale.

Two parts of README.md are generated, each between a pair of markers (`<!-- figures:NAME -->` ...
`<!-- /figures:NAME -->`, invisible when rendered):
- `side-by-side`: the table of the reference beside real memory systems and the harness's baselines, from
  `reports/readme/side_by_side.json` (the `side_by_side.json` one `codemem-bench compare` run wrote, regrouped
  by task here), and the line under it naming that run's command, commit, machine, date and wall time;
- `reference-score`: the sentence giving the reference's score on the default suite, from
  `reports/readme/reference/run.json` (the run.json of a real `codemem-bench run`, plus the package versions
  it ran with).

    python3 -m bench.report.readme_figures --check           # exit 1 naming each part that differs
    python3 -m bench.report.readme_figures --write           # rewrite those parts of README.md
    python3 -m bench.report.readme_figures --keep RUN_DIR    # make RUN_DIR (a default-suite run of
                                                             # `reference`) the README's reference run, then --write
    python3 -m bench.report.readme_figures --side-by-side DIR   # make DIR (a `compare` output folder) the
                                                                # README's side-by-side run (its
                                                                # side_by_side.json and comparison.md), then --write

`tests/docs` runs the check, so a README figure that its file does not hold fails the tests.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SIDE_BY_SIDE = Path("reports/readme/side_by_side.json")
COMPARISON = Path("reports/readme/comparison.md")    # that run's paired tests, kept beside it
REFERENCE_RUN = Path("reports/readme/reference/run.json")
TASKS = ("blame", "history", "files", "branches")
DATA = ("sqlite-utils", "httpx", "attrs")
SINGLE = ("knowledge", "knowledge-history", "memory-lane", "smoke")
SURFACE = ("start-up ms", "tools/list chars (≈ tokens)")


def _short(v: float | None) -> str:
    """`.209` (a figure in [0, 1] as the table writes it), `–` for a scenario the backend could not run."""
    return "–" if v is None else f"{v:.3f}".lstrip("0")


def _cell(v: Any) -> str:
    return "–" if v is None else str(v)


def _fixed(v: float | None, digits: int) -> str:
    return "–" if v is None else f"{v:.{digits}f}"


def side_by_side_table(doc: dict[str, Any]) -> str:
    """The README's markdown table of `side_by_side.json`, then the line naming the run it came from."""
    lost = f"lost / acknowledged writes ({doc['agents']} agents)"
    head = ["backend", "retrieval", "score", *(f"{t} s / h / a" for t in TASKS), *SINGLE, "checks", "p95 ms", lost,
            *SURFACE]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in doc["rows"]:
        q = r["ndcg@10"]
        name = f"*{r['backend']}*" if r.get("baseline") else f"`{r['backend']}`"
        cells = [name, _fixed(r.get("retrieval"), 2), _fixed(r.get("score"), 2),
                 *(" / ".join(_short(q.get(f"{d}-{t}")) for d in DATA) for t in TASKS),
                 *(_short(q.get(n)) for n in SINGLE), _fixed(r.get("check_rate"), 3), _fixed(r.get("p95 ms"), 1),
                 *(_cell(r.get(k)) for k in (lost, *SURFACE))]
        lines.append("| " + " | ".join(cells) + " |")
    cut = (f"; `--queries {doc['cut']}`: each history scenario, judged from `oracle_data/`, cut after its first "
           f"{doc['cut']} judged queries, the same cut for every backend; smoke, memory-lane, knowledge and "
           f"knowledge-history whole" if doc.get("cut") else "")
    load = "–".join(f"{x:g}" for x in doc.get("load") or [])
    lines += ["", f"From one run: `{doc['command']}` (suite `{doc['suite']}`{cut}); commit {doc['commit']}, "
                  f"{doc['date']}, {doc['machine']}, {doc['minutes']:g} min wall time, load {load} at its start "
                  f"and end. nDCG@10 per scenario (s / h / a: sqlite-utils / httpx / attrs); `–`: not run "
                  f"(unsupported) or not a figure of that row."]
    return "\n".join(lines)


def reference_sentence(run: dict[str, Any]) -> str:
    """The README's sentence on the reference's default-suite score, from its kept run.json."""
    parts = ", ".join(f"{k} {v:.3f}" for k, v in sorted((run.get("components") or {}).items()))
    return (f"`codemem-bench run` (the default suite) at commit {str(run['commit'])[:7]} scored the reference "
            f"**{run['score']:.2f}** ({parts}; {str(run['date'])[:10]}; `{REFERENCE_RUN.parent.as_posix()}/run.json` "
            f"holds that run's figures and the package versions it ran with).")


def parts(root: Path = ROOT) -> dict[str, str]:
    """Each generated part's text, from the committed files."""
    side = json.loads((root / SIDE_BY_SIDE).read_text(encoding="utf-8"))
    run = json.loads((root / REFERENCE_RUN).read_text(encoding="utf-8"))
    return {"side-by-side": side_by_side_table(side), "reference-score": reference_sentence(run)}


def _block(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- figures:{re.escape(name)} -->\n)(.*?)(\n<!-- /figures:{re.escape(name)} -->)", re.S)


def differences(readme: str, root: Path = ROOT) -> list[str]:
    """What in `readme` disagrees with the committed files: one line per part (missing markers count)."""
    out = []
    for name, text in parts(root).items():
        m = _block(name).search(readme)
        if m is None:
            out.append(f"README.md: no `<!-- figures:{name} -->` ... `<!-- /figures:{name} -->` block")
        elif m.group(2) != text:
            out.append(f"README.md figures:{name} differs from its file (python3 -m bench.report.readme_figures "
                       f"--write):\n  README: {m.group(2)[:300]!r}\n  file:   {text[:300]!r}")
    return out


def write(readme_path: Path, root: Path = ROOT) -> None:
    text = readme_path.read_text(encoding="utf-8")
    for name, part in parts(root).items():
        text, n = _block(name).subn(lambda m, p=part: m.group(1) + p + m.group(3), text)
        if n != 1:
            raise ValueError(f"{readme_path}: expected one figures:{name} block, found {n}")
    readme_path.write_text(text, encoding="utf-8")


def keep(run_dir: Path, root: Path = ROOT) -> Path:
    """Write RUN_DIR's figures (its report's run.json, plus the package versions) to reports/readme/reference/run.json."""
    report = json.loads((run_dir / "report.json").read_text(encoding="utf-8"))
    if report.get("backend") != "reference" or set(report.get("suite") or []) != set(_default_suite(root)):
        raise ValueError(f"{run_dir}: not a run of `reference` over the default suite")
    from bench.report.runs import run_figures
    run = run_figures(report, run_dir.name)
    run["packages"] = (report.get("environment") or {}).get("packages")
    run["python"] = (report.get("environment") or {}).get("python")
    dest = root / REFERENCE_RUN
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(json.dumps(run, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    return dest


def keep_side_by_side(compare_dir: Path, root: Path = ROOT) -> Path:
    """Copy a `compare` run's side_by_side.json (with the run folder it came from) to reports/readme/, and its
    comparison.md (the paired tests the README's reading of the table cites) when the run wrote one."""
    doc = json.loads((compare_dir / "side_by_side.json").read_text(encoding="utf-8"))
    missing = [k for k in ("command", "commit", "date", "machine", "minutes", "rows") if k not in doc]
    if missing:
        raise ValueError(f"{compare_dir / 'side_by_side.json'}: not written by `codemem-bench compare` "
                         f"(missing {', '.join(missing)})")
    doc["rows"] = [_unrun_as_none(r, compare_dir) for r in doc["rows"]]
    doc = {"what": ("the side-by-side table of README.md ('Side by side'): the side_by_side.json of one "
                    "`codemem-bench compare` run. README.md's table is written from this file (python3 -m "
                    "bench.report.readme_figures --write) and tests/docs checks they agree; report.html places "
                    "a run beside these rows."), "run": str(compare_dir), **doc}
    dest = root / SIDE_BY_SIDE
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    tests = compare_dir / "comparison.md"
    if tests.is_file():   # a run without one leaves no stale copy of another run's tests
        (root / COMPARISON).write_bytes(tests.read_bytes())
    else:
        (root / COMPARISON).unlink(missing_ok=True)
    return dest


def _unrun_as_none(row: dict[str, Any], compare_dir: Path) -> dict[str, Any]:
    """A backend row with `None` for each scenario none of whose ranked queries it could run, read from its
    report.json in the run folder (compare writes None itself since `ndcg_or_none`; older runs wrote 0.0)."""
    from bench.compare.runner import slug
    from bench.compare.side_by_side import ndcg_or_none
    if row.get("baseline"):
        return row
    scenarios = json.loads((compare_dir / slug(row["backend"]) / "report.json").read_text(encoding="utf-8"))["scenarios"]
    ndcg = {n: (None if n in scenarios and ndcg_or_none(scenarios[n]) is None else v) for n, v in row["ndcg@10"].items()}
    return {**row, "ndcg@10": ndcg}


def _default_suite(root: Path) -> list[str]:
    return json.loads((root / "scenarios" / "suites.json").read_text(encoding="utf-8"))["default"]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python3 -m bench.report.readme_figures", description=__doc__.splitlines()[0])
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--check", action="store_true", help="exit 1 naming each README part that differs")
    g.add_argument("--write", action="store_true", help="rewrite the README's parts from the files")
    g.add_argument("--keep", type=Path, metavar="RUN_DIR", help="keep RUN_DIR as the README's reference run, then write")
    g.add_argument("--side-by-side", type=Path, metavar="DIR",
                   help="keep DIR (a `compare` output folder) as the README's side-by-side run, then write")
    args = p.parse_args(argv)
    if args.keep:
        print(f"kept: {keep(args.keep)}")
    if args.side_by_side:
        print(f"kept: {keep_side_by_side(args.side_by_side)}")
    if args.write or args.keep or args.side_by_side:
        write(ROOT / "README.md")
        print("README.md: figures written")
        return 0
    diffs = differences((ROOT / "README.md").read_text(encoding="utf-8"))
    print("\n".join(diffs) or "README.md: figures agree with their files")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
