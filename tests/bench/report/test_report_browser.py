"""report.html as a person sees it: headless Chromium screenshots the page of a real smoke run.

Needs Chromium from Debian's packages: `apt-get update && apt-get install -y chromium`
(the test skips, saying so, when it is absent). Set CODEMEM_BENCH_SCREENSHOT=path to keep the PNG.
"""
import os
import shutil
import subprocess

import matplotlib.image
import numpy as np
import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="needs Chromium: apt-get update && apt-get install -y chromium")


def screenshot(page, png, tmp_path, size=(1280, 4000)):
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
           f"--user-data-dir={tmp_path / 'profile'}", f"--screenshot={png}", f"--window-size={size[0]},{size[1]}",
           page.resolve().as_uri()]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert png.is_file(), f"chromium wrote no screenshot (exit {done.returncode}): {done.stderr[-500:]}"


def test_chromium_renders_the_report_with_score_text_and_plots(smoke_run, tmp_path):
    out, _, _ = smoke_run
    png = tmp_path / "report.png"
    screenshot(out / "report.html", png, tmp_path)
    if os.environ.get("CODEMEM_BENCH_SCREENSHOT"):
        shutil.copyfile(png, os.environ["CODEMEM_BENCH_SCREENSHOT"])
    img = matplotlib.image.imread(png)[:, :, :3]
    assert img.shape[:2] == (4000, 1280)   # the whole smoke page: latency plots come after the quality sections
    assert png.stat().st_size > 30_000
    ink = img.mean(axis=2) < 0.6  # dark pixels: text, lines, plot marks
    # the top of the page holds the big score line and the component table: not blank
    assert ink[:400].mean() > 0.01
    assert ink.mean() > 0.01 and img.std() > 0.05
    # the latency plots rendered: matplotlib's tab:blue (the ECDF line) and tab:red (the budget tick),
    # colours the page's own CSS never uses (without the images both counts are 0)
    rgb = (img * 255).astype(int)
    for name, colour, least in (("tab:blue", (31, 119, 180), 500), ("tab:red", (214, 39, 40), 30)):
        near = (np.abs(rgb - np.array(colour)).max(axis=2) < 25).sum()
        assert near >= least, f"{near} pixels of {name}: the latency plots did not render"


# Measures the laid-out page: each table's right edge and the page's scroll width against the window's
# width. Injected into a copy of the page only (report.html itself has no script).
MEASURE = """<script>
window.addEventListener('load', () => {
  const w = window.innerWidth, out = [];
  document.querySelectorAll('table').forEach((t, i) => {
    const r = t.getBoundingClientRect();
    const where = (t.closest('section') || {}).id || '?';
    if (r.right > w + 0.5) out.push(where + ' table ' + i + ': right edge ' + Math.round(r.right) + ' px');
  });
  const sw = document.documentElement.scrollWidth;
  if (sw > w) out.push('page scroll width ' + sw + ' px');
  const pre = document.createElement('pre');
  pre.id = 'measured';
  pre.textContent = JSON.stringify({width: w, tables: document.querySelectorAll('table').length, cut: out});
  document.body.appendChild(pre);
});
</script>"""


def measure(page, tmp_path, width=1280):
    """{width, tables, cut} as Chromium lays `page` out in a window `width` px wide."""
    import json
    import re
    probe = tmp_path / "measure.html"
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", MEASURE + "</body>"), encoding="utf-8")
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
           f"--user-data-dir={tmp_path / 'profile-measure'}", f"--window-size={width},900",
           "--virtual-time-budget=5000", "--dump-dom", probe.resolve().as_uri()]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    found = re.search(r'<pre id="measured">(.*?)</pre>', done.stdout, re.S)
    assert found, f"chromium printed no measurement (exit {done.returncode}): {done.stderr[-500:]}"
    from html import unescape
    return json.loads(unescape(found.group(1)))


def wide_report(report):
    """`report` with every scenario of the default suite (long names, every column filled), a long failure
    message and a long unbroken token, as a 21-scenario run shows them."""
    import copy
    smoke = report["scenarios"]["smoke"]
    names = ["sqlite-utils-branches", "knowledge-history-calibration", "attrs-history", "httpx-files", "graph-pit"]
    for n in names:
        s = copy.deepcopy(smoke)
        s["file"] = f"scenarios/{n}.jsonl"
        s["problems"] = [{"line": 1234, "step": "memory_search_structured", "status": "failed",
                          "message": "ranked: expected " + "mem:" + "a" * 180 + " in the top 10 " * 6}]
        report["scenarios"][n] = s
    report["suite"] = ["smoke", *names]
    return report


def test_no_table_is_cut_off_at_1280_px(smoke_run, tmp_path):
    import json
    from bench.report.html import write_html
    out, _, _ = smoke_run
    for page in (out / "report.html", None):
        if page is None:   # the same run with many long rows
            wide = tmp_path / "wide"
            wide.mkdir()
            write_html(wide, wide_report(json.loads((out / "report.json").read_text())))
            page = wide / "report.html"
        got = measure(page, tmp_path)
        assert got["width"] == 1280 and got["tables"] >= 4, got
        assert got["cut"] == [], f"{page}: tables wider than the window: {got['cut']}"
    png = tmp_path / "wide.png"
    screenshot(page, png, tmp_path, size=(1280, 4000))
    if os.environ.get("CODEMEM_BENCH_SCREENSHOT"):
        shutil.copyfile(png, os.environ["CODEMEM_BENCH_SCREENSHOT"].replace(".png", "") + "-wide.png")


def test_the_check_sees_a_table_that_is_cut_off(tmp_path):
    """The measurement is not blind: a table of 40 wide cells at 1280 px is reported."""
    page = tmp_path / "cut.html"
    page.write_text("<html><body><section id=x><table><tr>" + "<td style='white-space:nowrap'>wide cell text</td>" * 40
                    + "</tr></table></section></body></html>", encoding="utf-8")
    got = measure(page, tmp_path)
    assert got["cut"] and got["cut"][0].startswith("x table 0: right edge"), got
