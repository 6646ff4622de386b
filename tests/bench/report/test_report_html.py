"""report.html: written by every run, self-contained, and it leads with what needs attention."""
import base64
import io
import re
from html.parser import HTMLParser

import matplotlib.image

from bench.report.html import render_html


class Page(HTMLParser):
    """Section ids, headings, table cells, every src/href, and the inline images."""

    def __init__(self):
        super().__init__()
        self.sections, self.headings, self.cells, self.urls, self.images = [], [], [], [], []
        self._in = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self.sections.append(a.get("id"))
        for key in ("src", "href"):
            if key in a:
                self.urls.append(a[key])
        if tag == "img":
            self.images.append(a["src"])
        if tag in ("h2", "td", "th"):
            self._in = tag

    def handle_data(self, data):
        if self._in == "h2":
            self.headings.append(data.strip())
        elif self._in in ("td", "th"):
            self.cells.append(data.strip())

    def handle_endtag(self, tag):
        if tag == self._in:
            self._in = None


def parse(text):
    p = Page()
    p.feed(text)
    return p


def test_every_run_writes_a_self_contained_page(smoke_run):
    out, _, _ = smoke_run
    text = (out / "report.html").read_text(encoding="utf-8")
    page = parse(text)
    assert page.sections == ["score", "attention", "quality", "standing", "trend", "seed-defaults", "latency",
                             "scenarios", "environment"]
    # no network: nothing fetched from outside; the only links are relative ones to SCORING.md and the
    # scenario file, and they resolve from the report's folder
    assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", text)
    links = [u for u in page.urls if not u.startswith("data:image/png;base64,")]
    assert links and all(u.endswith(("SCORING.md", "scenarios/smoke.jsonl")) for u in links), links
    assert all((out.resolve() / u).resolve().is_file() for u in links), links
    assert "<link" not in text and "<script" not in text
    # the quality chart and two latency plots (no trend: one run), each a real PNG with something drawn on it
    assert len(page.images) == 3
    for src in page.images:
        img = matplotlib.image.imread(io.BytesIO(base64.b64decode(src.split(",", 1)[1])), format="png")
        assert img.shape[0] > 200 and img.std() > 0.05


def test_the_page_shows_score_components_machine_and_scenario_file(smoke_report):
    smoke_report["scenarios"]["smoke"].pop("baselines", None)  # a report made before baselines existed
    page = parse(render_html(smoke_report))
    cells = page.cells
    assert f"{smoke_report['score']['value']:.2f}" in render_html(smoke_report)
    for component in smoke_report["score"]["components"]:
        assert component in cells
    env = smoke_report["environment"]
    assert env["date"] in cells and env["commit"] in cells
    assert "scenarios/smoke.jsonl" in render_html(smoke_report)
    assert "Needs attention" in page.headings and "Every target met" in render_html(smoke_report)
    assert "no recency/BM25 baselines" in render_html(smoke_report)


def test_unmet_targets_and_failures_come_first_with_file_and_line(smoke_report, trouble):
    text = render_html(trouble(smoke_report))
    page = parse(text)
    assert page.sections.index("attention") < page.sections.index("quality")
    assert "Needs attention (2)" in page.headings
    where = [c for c in page.cells if c.startswith("scenarios/smoke.jsonl:")]
    assert where[:2] == ["scenarios/smoke.jsonl:1", "scenarios/smoke.jsonl:7"]  # target first, then the step
    assert "unmet target" in page.cells and "failed" in page.cells


def test_baselines_are_shown_when_the_report_has_them(smoke_report, trouble):
    page = parse(render_html(trouble(smoke_report)))
    assert "nDCG@10 BM25" in page.cells and "nDCG@10 recency" in page.cells
    assert "0.654" in page.cells and "0.123" in page.cells


def test_markup_in_report_text_is_escaped(smoke_report):
    smoke_report["scenarios"]["smoke"]["description"] = "<script>alert(1)</script>"
    text = render_html(smoke_report)
    assert "<script>" not in text and "&lt;script&gt;" in text


def test_scenarios_keep_the_run_order_after_a_json_round_trip(smoke_report):
    smoke_report["scenarios"]["aaa"] = smoke_report["scenarios"]["smoke"]
    smoke_report["suite"] = ["smoke", "aaa"]
    smoke_report["scenarios"] = dict(sorted(smoke_report["scenarios"].items()))  # as report.json holds them
    text = render_html(smoke_report)
    quality = text[text.index('id="quality"'):]
    assert quality.index(">smoke<") < quality.index(">aaa<")


def test_targets_show_in_the_unit_of_their_value(smoke_report):
    """A storage target reads `< 9.5 MiB` beside a value in MiB, not `< 10000000.0`."""
    s = smoke_report["scenarios"]["smoke"]
    s["targets"].append({"metric": "storage_bytes", "op": "<", "target": 10_000_000.0, "source": "test",
                         "value": 12_000_000, "met": False})
    page = parse(render_html(smoke_report))
    assert "storage_bytes < 9.5 MiB" in page.cells and "11.4 MiB" in page.cells
    assert not any("10000000" in c for c in page.cells)


def test_checks_that_did_not_run_are_listed(smoke_report):
    """A backend lacking a capability: its unsupported steps' checks count as not passed, and each is listed."""
    s = smoke_report["scenarios"]["smoke"]
    s["not_run"] = [{"line": 9, "step": "memory_list_structured", "checks": 2, "message": "needs memory.list"}]
    page = parse(render_html(smoke_report))
    assert "scenarios/smoke.jsonl:9" in page.cells and "not run" in page.cells
    assert any("2 checks not run, needs memory.list" in c for c in page.cells)


def test_the_quality_chart_draws_the_baselines_and_the_target(smoke_report, trouble):
    """The backend, recency and BM25 bars and the target tick, in colours the page's CSS never uses."""
    from bench.report.quality_plots import quality_chart
    png = quality_chart(trouble(smoke_report)["scenarios"], "reference")
    img = (matplotlib.image.imread(io.BytesIO(png), format="png")[:, :, :3] * 255).astype(int)
    import numpy as np
    for name, colour in (("tab:blue", (31, 119, 180)), ("tab:orange", (255, 127, 14)), ("tab:gray", (127, 127, 127)),
                         ("tab:red", (214, 39, 40))):
        assert (np.abs(img - np.array(colour)).max(axis=2) < 20).sum() > 50, name
    smoke_report["scenarios"]["smoke"]["quality"] = {}
    assert quality_chart(smoke_report["scenarios"], "reference") is None
