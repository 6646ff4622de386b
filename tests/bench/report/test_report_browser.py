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


def screenshot(page, png, tmp_path, size=(1280, 2400)):
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
    assert img.shape[:2] == (2400, 1280)
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
